import { createFileRoute } from '@tanstack/react-router';
import { TransparencyPage } from '../features/retire/transparency-page';

// Public: the platform's transparency figures (no login).
export const Route = createFileRoute('/transparency')({
  component: TransparencyPage,
});
