import rules from './rules.json';
import type { IccRules } from './rules';

/** The rules file this build judges by: checked against its schema by tests/shared/icc-engine.test.ts. */
export const ICC_RULES: IccRules = rules as IccRules;
