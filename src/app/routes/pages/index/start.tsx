import { createFileRoute } from '@tanstack/react-router';
import { StartPage } from '../../../features/start/start-page';

// The first screen of a new install (docs/decisions/0005-start.md).
export const Route = createFileRoute('/pages/index/start')({ component: StartPage });
