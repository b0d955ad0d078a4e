import { useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { NavBar } from '../../components/nav-bar';
import { Field } from '../../components/forms/field';
import { FormAlert } from '../../components/forms/form-alert';
import { useSchemaForm } from '../../lib/form';
import { wireLang } from '../../lib/i18n';
import { useSession } from '../../lib/storage';
import { reportDbError } from '../../lib/db-health';
import { CAR_FUELS, DIETS } from '../../../shared/schemas/footprint';
import { EMPTY_FORM, footprintFormSchema, type FootprintFormValues } from './form-values';
import { dietLabel, fuelLabel } from './labels';
import { keepResult, saveToAccount } from './store';
import './footprint.css';

// The carbon footprint questionnaire (docs/product.md#carbon-footprint). The answers are checked by the
// shared schema and computed on the device (shared/footprint/compute.ts), so it works offline; the result is
// kept in Dexie and, for a member, saved to the account in the background (store.ts).

const FORM = 'footprint';

function Group({ legend, children }: { legend: ReactNode; children: ReactNode }) {
  return (
    <fieldset className="fp-group card">
      <legend className="fp-group__legend">{legend}</legend>
      {children}
    </fieldset>
  );
}

export function FootprintPage() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const { login } = useSession();
  const form = useSchemaForm(FORM, footprintFormSchema, EMPTY_FORM, wireLang());
  const { values, set, errors, a11y } = form;
  const [failed, setFailed] = useState('');

  const number = (name: keyof FootprintFormValues & string, label: ReactNode, hint?: ReactNode, unit?: string) => (
    <Field form={FORM} name={name} label={label} errors={errors} hint={hint}>
      <div className="fp-input">
        <input
          className="input"
          inputMode={unit === 'S$' ? 'decimal' : 'numeric'}
          autoComplete="off"
          value={values[name]}
          onChange={(e) => set(name, e.target.value)}
          {...a11y(name)}
        />
        {unit && <span className="fp-input__unit">{unit}</span>}
      </div>
    </Field>
  );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const answers = form.check();
    if (!answers) return;
    setFailed('');
    try {
      const id = await keepResult(answers, login.mem_id);
      if (login.mem_id > 0) void saveToAccount(login.mem_id).catch(() => undefined);
      await navigate({ to: '/pages/profile/result', search: { id } });
    } catch (err) {
      reportDbError(err);
      setFailed(t`Your result could not be kept on this device. Free some storage and try again.`);
    }
  };

  return (
    <div className="page fp-page">
      <NavBar title={t`Carbon footprint`} />
      <form className="section" noValidate onSubmit={(e) => void submit(e)} data-testid="footprint-form">
        <p className="muted fp-intro">
          <Trans>A few questions about your year. Everything is calculated on this phone; skip what does not apply.</Trans>
        </p>

        <Group legend={<Trans>At home</Trans>}>
          <div className="segmented fp-switch" role="group" aria-label={t`Electricity figure`}>
            <button type="button" aria-pressed={values.electricity_input === 'kwh'} onClick={() => set('electricity_input', 'kwh')}>
              <Trans>kWh used</Trans>
            </button>
            <button type="button" aria-pressed={values.electricity_input === 'bill'} onClick={() => set('electricity_input', 'bill')}>
              <Trans>Bill in S$</Trans>
            </button>
          </div>
          {values.electricity_input === 'kwh'
            ? number('electricity_kwh_month', <Trans>Household electricity a month</Trans>, <Trans>Printed on your SP bill as usage.</Trans>, 'kWh')
            : number('electricity_bill_cents_month', <Trans>Household electricity bill a month</Trans>, <Trans>Including GST; converted at the SP household tariff.</Trans>, 'S$')}
          {number('household_size', <Trans>People in your household</Trans>, <Trans>The home's share is divided among them.</Trans>)}
        </Group>

        <Group legend={<Trans>Getting around, each week</Trans>}>
          <Field form={FORM} name="car_fuel" label={<Trans>Your car</Trans>} errors={errors}>
            <select className="input" value={values.car_fuel} onChange={(e) => set('car_fuel', e.target.value as FootprintFormValues['car_fuel'])} {...a11y('car_fuel')}>
              {CAR_FUELS.map((f) => (
                <option key={f} value={f}>
                  {i18n._(fuelLabel[f])}
                </option>
              ))}
            </select>
          </Field>
          {values.car_fuel !== 'none' && number('car_km_week', <Trans>Driven a week</Trans>, undefined, 'km')}
          {number('taxi_km_week', <Trans>Taxi and ride-hail a week</Trans>, undefined, 'km')}
          {number('bus_trips_week', <Trans>Bus rides a week</Trans>)}
          {number('mrt_trips_week', <Trans>MRT and LRT journeys a week</Trans>)}
        </Group>

        <Group legend={<Trans>Flights, return trips a year</Trans>}>
          {number('flights_short_year', <Trans>Short: up to 3,700 km</Trans>, <Trans>e.g. Kuala Lumpur, Bangkok, Hong Kong</Trans>)}
          {number('flights_medium_year', <Trans>Medium: 3,700 to 7,000 km</Trans>, <Trans>e.g. Shanghai, Tokyo, Sydney</Trans>)}
          {number('flights_long_year', <Trans>Long: over 7,000 km</Trans>, <Trans>e.g. London, Zurich, San Francisco</Trans>)}
        </Group>

        <Group legend={<Trans>Food</Trans>}>
          <div className="fp-diets" role="radiogroup" aria-label={t`Your diet`} aria-invalid={!!errors.diet || undefined} aria-describedby={errors.diet ? `${FORM}-diet-error` : undefined}>
            {DIETS.map((d, i) => (
              <label key={d} className="fp-diet">
                <input
                  type="radio"
                  name="diet"
                  id={i === 0 ? `${FORM}-diet` : undefined}
                  value={d}
                  checked={values.diet === d}
                  onChange={() => set('diet', d)}
                />
                <span>{i18n._(dietLabel[d])}</span>
              </label>
            ))}
          </div>
          {errors.diet && (
            <p className="field__error" id={`${FORM}-diet-error`}>
              {errors.diet}
            </p>
          )}
        </Group>

        <Group legend={<Trans>Shopping, a month</Trans>}>
          {number('clothing_cents_month', <Trans>Clothes and shoes</Trans>, undefined, 'S$')}
          {number('electronics_cents_month', <Trans>Electronics and appliances</Trans>, undefined, 'S$')}
          {number('household_goods_cents_month', <Trans>Furniture and household goods</Trans>, undefined, 'S$')}
        </Group>

        <FormAlert id="footprint-alert" message={failed} />
        <button type="submit" className="btn btn--block" data-testid="footprint-submit">
          <Trans>See my footprint</Trans>
        </button>
      </form>
    </div>
  );
}
