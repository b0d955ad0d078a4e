import { createFileRoute } from '@tanstack/react-router';
import { HomePage } from '../../../features/home/home-page';

// SPEC: /pages/index/index is an alias of the home tab.
export const Route = createFileRoute('/pages/index/index')({ component: HomePage });
