import { createFileRoute } from '@tanstack/react-router';
import { HomePage } from '../../../features/home/home-page';

// docs/product.md#screens-and-routes: /pages/index/index is an alias of the home tab.
export const Route = createFileRoute('/pages/index/index')({ component: HomePage });
