// The API's price tiers: their own module, so that the capability catalog can name them without
// reaching the domain vocabulary that is derived from it.
import { z } from 'zod';

export const TIERS = ['basic', 'standard', 'superior'] as const;
export const Tier = z.enum(TIERS);
export type Tier = z.infer<typeof Tier>;
