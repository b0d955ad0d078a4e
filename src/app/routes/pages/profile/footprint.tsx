import { createFileRoute } from '@tanstack/react-router';
import { FootprintPage } from '../../../features/footprint/footprint-page';

// The carbon footprint questionnaire (docs/decisions/0009-footprint.md); computed on the device.
export const Route = createFileRoute('/pages/profile/footprint')({ component: FootprintPage });
