import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { JoinBlock, ProjectStatus, ProjectType } from '../../shared/schemas/content';

export const statusLabel: Record<ProjectStatus, MessageDescriptor> = {
  pending_review: msg`Pending review`,
  presale: msg`Pre-sale`,
  in_progress: msg`In progress`,
  closed: msg`Closed`,
};

export const typeLabel: Record<ProjectType, MessageDescriptor> = {
  forestry: msg`Forestry`,
  mangrove: msg`Mangrove`,
  renewable: msg`Renewable energy`,
  cookstove: msg`Clean cookstoves`,
  methane: msg`Methane capture`,
  blue_carbon: msg`Blue carbon`,
  soil: msg`Soil carbon`,
};

export const joinBlockLabel: Record<Exclude<JoinBlock, null>, MessageDescriptor> = {
  not_started: msg`Project not started`,
  ended: msg`Project ended`,
  full: msg`Project full`,
  paused: msg`Sales paused: the registry holds fewer credits than Canopy counts, and we are checking it. Credits already paid for are safe.`,
};
