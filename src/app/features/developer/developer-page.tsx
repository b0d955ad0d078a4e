import { useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { MemberPage } from '../../components/member-page';
import { SecretOnce } from '../../components/forms/secret-once';
import { LoadingState } from '../../components/empty-state';
import { showToast } from '../../components/toast';
import { keepNotice } from '../../components/page-notice';
import { useWrite } from '../../components/forms/use-write';
import { ConfirmSheet } from '../../components/forms/confirm-sheet';
import { formatAmount, formatDateTime } from '../../lib/format';
import { useOnline } from '../../lib/online';
import { API_KEY_SCOPES, type ApiKey, type ApiKeyMode, type ApiKeyScope } from '../../../shared/schemas/developer';
import { createApiKey, revokeApiKey, rotateApiKey, topupSandbox, useApiKeys, type ApiKeyCreated, type KeyInput } from './api';
import './developer.css';

// /pages/developer: the account's API keys for the integrators' API (docs/product.md#integrators): make one
// (its secret shown once), see each key's scopes, maker and last use, rotate and revoke; and the test mode's
// play money. A person manages her own keys; in an organisation, the owner and admins.

const DAY_MS = 86_400_000;

export function DeveloperPage() {
  const { t } = useLingui();
  return (
    <MemberPage title={t`Developers`} className="developer-page" prompt={<Trans>Log in to manage your API keys.</Trans>}>
      <DeveloperContent />
    </MemberPage>
  );
}

function DeveloperContent() {
  const { t } = useLingui();
  const { keys, reload } = useApiKeys();
  const [secret, setSecret] = useState<ApiKeyCreated | null>(null);
  if (keys === undefined) return <LoadingState />;
  const shown = (made: ApiKeyCreated) => {
    setSecret(made);
    void reload();
  };
  return (
    <div className="section developer">
      {/* The secret of a key just made: shown this once. */}
      {secret ? (
        <SecretOnce
          title={<Trans>Your new key</Trans>}
          warning={<Trans>Copy it now and keep it somewhere safe: it is shown only this once. Canopy keeps only a fingerprint of it.</Trans>}
          secret={secret.key}
          copyFailed={t`Select the key and copy it.`}
          testId="api-key"
          onDone={() => setSecret(null)}
        />
      ) : null}
      {keys === null ? (
        <p className="card developer-empty" data-testid="developer-unavailable">
          <Trans>Your API keys could not be loaded. In an organisation, only the owner and admins manage them; otherwise connect to the internet and try again.</Trans>
        </p>
      ) : (
        <>
          <CreateKeyCard onMade={shown} />
          <KeyList list={keys.list} onChanged={reload} onRotated={shown} />
          <SandboxCard available={keys.sandbox.available} credits={keys.sandbox.credits} onChanged={reload} />
        </>
      )}
      <p className="card developer-docs">
        <Trans>
          Use a key with the integrators&apos; API: <a href="/v1/docs">the API reference</a> and <a href="/v1/openapi.json">its OpenAPI document</a>.
        </Trans>
      </p>
    </div>
  );
}

function useScopeLabels(): Record<ApiKeyScope, string> {
  const { t } = useLingui();
  return { read: t`Read`, buy: t`Buy`, retire: t`Retire`, webhooks: t`Webhooks` };
}

function ModeBadge({ mode }: { mode: ApiKeyMode }) {
  return <span className={`developer-mode developer-mode--${mode}`}>{mode === 'test' ? <Trans>Test</Trans> : <Trans>Live</Trans>}</span>;
}

function CreateKeyCard({ onMade }: { onMade: (made: ApiKeyCreated) => void }) {
  const { t } = useLingui();
  const online = useOnline();
  const labels = useScopeLabels();
  const write = useWrite((input: KeyInput) => createApiKey(input));
  const [name, setName] = useState('');
  const [mode, setMode] = useState<ApiKeyMode>('test');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['read', 'buy', 'retire']);
  const [days, setDays] = useState('0');
  const [confirming, setConfirming] = useState(false);
  const toggle = (scope: ApiKeyScope) => setScopes((now) => (now.includes(scope) ? now.filter((s) => s !== scope) : [...now, scope]));
  const create = async (password: string): Promise<number | null> => {
    const expires_at = days === '0' ? null : Date.now() + Number(days) * DAY_MS;
    const res = await write.run({ name: name.trim(), mode, scopes, expires_at, password });
    if (res?.code === 0 && res.data) {
      setConfirming(false);
      setName('');
      onMade(res.data);
    }
    return res?.code ?? null;
  };
  const ready = name.trim() !== '' && scopes.length > 0;
  return (
    <section className="card developer-create" data-testid="api-key-create">
      <h2 className="developer-heading">
        <Trans>Create a key</Trans>
      </h2>
      <label className="field">
        <span>
          <Trans>Name</Trans>
        </span>
        <input className="input" value={name} maxLength={60} onChange={(e) => setName(e.target.value)} placeholder={t`e.g. Shop checkout`} data-testid="api-key-name" />
      </label>
      <fieldset className="developer-choices">
        <legend>
          <Trans>Mode</Trans>
        </legend>
        <label className="developer-choice">
          <input type="radio" name="api-key-mode" checked={mode === 'test'} onChange={() => setMode('test')} data-testid="api-key-mode-test" />
          <span>
            <Trans>Test: the sandbox, with play money</Trans>
          </span>
        </label>
        <label className="developer-choice">
          <input type="radio" name="api-key-mode" checked={mode === 'live'} onChange={() => setMode('live')} data-testid="api-key-mode-live" />
          <span>
            <Trans>Live: real money and credits</Trans>
          </span>
        </label>
      </fieldset>
      <fieldset className="developer-choices">
        <legend>
          <Trans>Scopes</Trans>
        </legend>
        {API_KEY_SCOPES.map((scope) => (
          <label key={scope} className="developer-choice">
            <input type="checkbox" checked={scopes.includes(scope)} onChange={() => toggle(scope)} data-testid={`api-key-scope-${scope}`} />
            <span>{labels[scope]}</span>
          </label>
        ))}
      </fieldset>
      <label className="field">
        <span>
          <Trans>Expires</Trans>
        </span>
        <select className="input" value={days} onChange={(e) => setDays(e.target.value)} data-testid="api-key-expiry">
          <option value="0">{t`Never (until revoked)`}</option>
          <option value="30">{t`In 30 days`}</option>
          <option value="90">{t`In 90 days`}</option>
          <option value="365">{t`In a year`}</option>
        </select>
      </label>
      <button
        type="button"
        className="btn btn--block"
        disabled={!online || !ready || write.busy}
        onClick={() => {
          write.setError('');
          setConfirming(true);
        }}
        data-testid="api-key-create-submit"
      >
        <Trans>Create key</Trans>
      </button>
      <ConfirmSheet
        open={confirming}
        onClose={() => setConfirming(false)}
        title={<Trans>Create the key</Trans>}
        password={{
          id: 'api-key-password',
          testId: 'payment-password',
          label: <Trans>Your payment password</Trans>,
          hint: <Trans>A key can buy and retire for this account as its scopes allow.</Trans>,
          missing: t`Enter your payment password.`,
        }}
        busy={write.busy}
        error={write.error}
        confirmLabel={<Trans>Create key</Trans>}
        busyLabel={<Trans>Processing…</Trans>}
        onConfirm={create}
        testId="api-key-confirm"
        submitTestId="api-key-confirm-submit"
      >
        <p className="sheet__what">
          {name.trim()} · <ModeBadge mode={mode} /> · {scopes.map((s) => labels[s]).join(', ')}
        </p>
      </ConfirmSheet>
    </section>
  );
}

function KeyList({ list, onChanged, onRotated }: { list: ApiKey[]; onChanged: () => Promise<void>; onRotated: (made: ApiKeyCreated) => void }) {
  return (
    <section className="card developer-keys">
      <h2 className="developer-heading">
        <Trans>API keys</Trans>
      </h2>
      {list.length === 0 ? (
        <p className="muted" data-testid="api-keys-empty">
          <Trans>No keys yet.</Trans>
        </p>
      ) : (
        <ul className="developer-list" data-testid="api-keys">
          {list.map((k) => (
            <KeyRow key={k.id} item={k} onChanged={onChanged} onRotated={onRotated} />
          ))}
        </ul>
      )}
    </section>
  );
}

function KeyRow({ item, onChanged, onRotated }: { item: ApiKey; onChanged: () => Promise<void>; onRotated: (made: ApiKeyCreated) => void }) {
  const { t } = useLingui();
  const online = useOnline();
  const labels = useScopeLabels();
  const revoke = useWrite(revokeApiKey);
  const rotate = useWrite((input: { id: number; overlap_hours: number; password: string }) => rotateApiKey(input));
  const [rotating, setRotating] = useState(false);
  const [overlap, setOverlap] = useState('24');
  const active = item.status === 'active';
  const doRevoke = async () => {
    const res = await revoke.run({ id: item.id });
    if (res?.code === 0) showToast(t`Key revoked.`, 'success');
    else if (res) keepNotice(res.msg, 'error');
    void onChanged();
  };
  const doRotate = async (password: string): Promise<number | null> => {
    const res = await rotate.run({ id: item.id, overlap_hours: Number(overlap), password });
    if (res?.code === 0 && res.data) {
      setRotating(false);
      onRotated(res.data);
    }
    return res?.code ?? null;
  };
  const created = formatDateTime(item.created_at);
  return (
    <li className="developer-row" data-testid="api-key-item">
      <span className="developer-row__name">
        {item.name} <ModeBadge mode={item.mode} />
      </span>
      <code className="developer-row__prefix" data-testid="api-key-prefix">
        {item.prefix}…
      </code>
      <span className="muted developer-row__meta">{item.scopes.map((s) => labels[s]).join(', ')}</span>
      <span className="muted developer-row__meta">
        <Trans>
          Created by {item.created_by} · {created}
        </Trans>
      </span>
      <span className="muted developer-row__meta" data-testid="api-key-last-used">
        {item.last_used_at === null ? <Trans>Never used</Trans> : <LastUsed at={item.last_used_at} ip={item.last_used_ip} />}
      </span>
      <span className="developer-row__meta" data-testid="api-key-status">
        {item.status === 'active' ? (
          item.expires_at === null ? (
            <Trans>Active until revoked</Trans>
          ) : (
            <ActiveUntil at={item.expires_at} />
          )
        ) : item.status === 'revoked' ? (
          <Trans>Revoked</Trans>
        ) : (
          <Trans>Expired</Trans>
        )}
      </span>
      {active ? (
        <span className="developer-actions">
          <button
            type="button"
            className="btn btn--ghost"
            disabled={!online || rotate.busy}
            onClick={() => {
              rotate.setError('');
              setRotating(true);
            }}
            data-testid="api-key-rotate"
          >
            <Trans>Rotate</Trans>
          </button>
          <button type="button" className="btn btn--ghost" disabled={!online || revoke.busy} onClick={() => void doRevoke()} data-testid="api-key-revoke">
            <Trans>Revoke</Trans>
          </button>
        </span>
      ) : null}
      <ConfirmSheet
        open={rotating}
        onClose={() => setRotating(false)}
        title={<Trans>Rotate the key</Trans>}
        password={{
          id: `api-key-rotate-password-${item.id}`,
          testId: 'payment-password',
          label: <Trans>Your payment password</Trans>,
          missing: t`Enter your payment password.`,
        }}
        busy={rotate.busy}
        error={rotate.error}
        confirmLabel={<Trans>Rotate</Trans>}
        busyLabel={<Trans>Processing…</Trans>}
        onConfirm={doRotate}
        testId="api-key-rotate-confirm"
        submitTestId="api-key-rotate-submit"
      >
        <label className="field">
          <span>
            <Trans>The old key keeps working for</Trans>
          </span>
          <select className="input" value={overlap} onChange={(e) => setOverlap(e.target.value)} data-testid="api-key-overlap">
            <option value="0">{t`No time: it stops now`}</option>
            <option value="1">{t`1 hour`}</option>
            <option value="24">{t`1 day`}</option>
            <option value="168">{t`7 days`}</option>
          </select>
        </label>
      </ConfirmSheet>
    </li>
  );
}

function LastUsed({ at, ip }: { at: number; ip: string }) {
  const when = formatDateTime(at);
  return (
    <Trans>
      Last used {when} from {ip}
    </Trans>
  );
}

function ActiveUntil({ at }: { at: number }) {
  const when = formatDateTime(at);
  return <Trans>Active until {when}</Trans>;
}

function SandboxCard({ available, credits, onChanged }: { available: number; credits: number; onChanged: () => Promise<void> }) {
  const { t } = useLingui();
  const online = useOnline();
  const write = useWrite(topupSandbox);
  const add = async () => {
    const res = await write.run({});
    if (res?.code === 0) showToast(t`Play money added.`, 'success');
    else if (res) keepNotice(res.msg, 'error');
    void onChanged();
  };
  const money = formatAmount(available, 'cents');
  const tons = formatAmount(credits, 'tons');
  return (
    <section className="card developer-sandbox" data-testid="sandbox-card">
      <h2 className="developer-heading">
        <Trans>Test mode sandbox</Trans>
      </h2>
      <p className="muted">
        <Trans>Test keys buy and retire here with play money: nothing touches your real balance, credits or certificates.</Trans>
      </p>
      <p data-testid="sandbox-balance">
        <Trans>
          Play money {money} · play credits {tons}
        </Trans>
      </p>
      <button type="button" className="btn btn--ghost btn--block" disabled={!online || write.busy} onClick={() => void add()} data-testid="sandbox-topup">
        <Trans>Add S$10,000.00 of play money</Trans>
      </button>
    </section>
  );
}
