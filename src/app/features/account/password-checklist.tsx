import { useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { PasswordRule, RuleState } from './password-rules';
import './account.css';

/** The length rule carries its number, so the checklist words it itself. */
export const passwordRuleLabel: Record<Exclude<PasswordRule, 'length'>, MessageDescriptor> = {
  digit: msg`A digit (0–9)`,
  upper: msg`An uppercase letter (A–Z)`,
  lower: msg`A lowercase letter (a–z)`,
  special: msg`A special character (e.g. ! @ # $)`,
  differs: msg`Not the same as your login password`,
};

/** The password rules, ticked as the user types; screen readers hear each rule and whether it holds. */
export function PasswordChecklist({ id, rules, min }: { id: string; rules: RuleState[]; min: number }) {
  const { t, i18n } = useLingui();
  return (
    <ul className="pw-rules" id={id} aria-label={t`Password rules`}>
      {rules.map(({ rule, met }) => (
        <li key={rule} className={met ? 'pw-rules__item pw-rules__item--met' : 'pw-rules__item'} data-met={met}>
          <span className="pw-rules__mark" aria-hidden="true">
            {met ? '✓' : '○'}
          </span>
          <span>{rule === 'length' ? t`At least ${min} characters` : i18n._(passwordRuleLabel[rule])}</span>
          <span className="sr-only">{met ? t`(done)` : t`(not yet)`}</span>
        </li>
      ))}
    </ul>
  );
}
