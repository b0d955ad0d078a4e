import { createFileRoute } from '@tanstack/react-router';
import { TopupPage } from '../../../features/wallet/topup-page';

// Route choice: docs/product.md#screens-and-routes shows no top-up route ("the texts imply" a top-up screen);
// /pages/profile/topup follows the pattern of the other wallet screens. The form comes first, the user's
// top-up records (pending / credited / rejected) below it.
export const Route = createFileRoute('/pages/profile/topup')({ component: TopupPage });
