import { createFileRoute } from '@tanstack/react-router';
import { FaqPage } from '../../../features/content/faq-page';

export const Route = createFileRoute('/pages/index/faq')({ component: FaqPage });
