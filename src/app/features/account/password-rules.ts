// The password strength checklists. The rules are those of the shared schemas (src/shared/schemas/auth.ts:
// withdrawalPasswordSchema, loginPasswordSchema); the tests hold the two in step.

export type PasswordRule = 'length' | 'digit' | 'upper' | 'lower' | 'special' | 'differs';

export interface RuleState {
  rule: PasswordRule;
  met: boolean;
}

export const WITHDRAW_PASSWORD_MIN = 10;
export const LOGIN_PASSWORD_MIN = 8;

/** The payment password: >= 10 characters, a digit, upper, lower, a special character, and not the login
 *  password (known only once the user has typed the login password too). */
export function withdrawPasswordRules(password: string, loginPassword: string): RuleState[] {
  return [
    { rule: 'length', met: password.length >= WITHDRAW_PASSWORD_MIN },
    { rule: 'digit', met: /\d/.test(password) },
    { rule: 'upper', met: /[A-Z]/.test(password) },
    { rule: 'lower', met: /[a-z]/.test(password) },
    { rule: 'special', met: /[^A-Za-z0-9]/.test(password) },
    { rule: 'differs', met: password !== '' && loginPassword !== '' && password.normalize('NFKC') !== loginPassword.normalize('NFKC') },
  ];
}

/** The login password: >= 8 characters with a digit, upper and lower case. */
export function loginPasswordRules(password: string): RuleState[] {
  return [
    { rule: 'length', met: password.length >= LOGIN_PASSWORD_MIN },
    { rule: 'digit', met: /\d/.test(password) },
    { rule: 'upper', met: /[A-Z]/.test(password) },
    { rule: 'lower', met: /[a-z]/.test(password) },
  ];
}
