import { createFileRoute } from '@tanstack/react-router';
import { SettingPage } from '../../../features/profile/setting-page';

export const Route = createFileRoute('/pages/profile/setting')({ component: SettingPage });
