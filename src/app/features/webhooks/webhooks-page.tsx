import { useState } from 'react';
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { MemberPage } from '../../components/member-page';
import { SecretOnce } from '../../components/forms/secret-once';
import { LoadingState } from '../../components/empty-state';
import { FormAlert } from '../../components/forms/form-alert';
import { SubmitButton } from '../../components/forms/submit-button';
import { useWrite } from '../../components/forms/use-write';
import { showToast } from '../../components/toast';
import { formatDateTime } from '../../lib/format';
import { useOnline } from '../../lib/online';
import { WEBHOOK_EVENT_TYPES, type WebhookAttempt, type WebhookEndpoint, type WebhookEventType, type WebhookMode } from '../../../shared/schemas/webhook';
import { createWebhook, deleteWebhook, loadDeliveries, pingWebhook, resendDelivery, rotateWebhook, useWebhooks } from './api';
import './webhooks.css';

// /pages/developer/webhooks (docs/product.md#webhooks): the account's endpoints (a person's own, an
// organisation's for its owner and admins), adding one with its secret shown once, rotating the secret, a
// ping, removal, and each endpoint's delivery log with a resend.

export function WebhooksPage() {
  const { t } = useLingui();
  return (
    <MemberPage title={t`Webhooks`} className="webhooks-page" prompt={<Trans>Log in to manage your webhooks.</Trans>}>
      <WebhooksContent />
    </MemberPage>
  );
}

function WebhooksContent() {
  const { t } = useLingui();
  const { list, reload } = useWebhooks();
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  if (list === undefined) return <LoadingState />;
  const url = secret?.url;
  return (
    <div className="section webhooks">
      <p className="muted webhooks__intro">
        <Trans>Canopy tells your systems when an order completes, credits are retired or money moves, signed per Standard Webhooks. Verify each delivery with the endpoint's secret.</Trans>
      </p>
      {/* The secret, shown this once: copied or written down now, or made anew by a rotation. */}
      {secret && (
        <SecretOnce
          title={<Trans>Signing secret for {url}</Trans>}
          warning={<Trans>Copy it now: it is shown only this once.</Trans>}
          secret={secret.secret}
          copyFailed={t`Copy failed. Select the text and copy it.`}
          testId="webhook"
          onDone={() => setSecret(null)}
        />
      )}
      <AddForm
        onAdded={async (url, s) => {
          setSecret({ url, secret: s });
          await reload();
        }}
      />
      {list === null ? (
        <p className="card webhooks__empty">
          <Trans>Your webhooks could not be loaded. Only the owner and admins of an organisation manage its webhooks.</Trans>
        </p>
      ) : list.length === 0 ? (
        <p className="card webhooks__empty" data-testid="webhooks-empty">
          <Trans>No endpoints yet.</Trans>
        </p>
      ) : (
        <ul className="webhooks__list" data-testid="webhooks-list">
          {list.map((e) => (
            <EndpointCard key={e.id} endpoint={e} onChanged={reload} onSecret={(s) => setSecret({ url: e.url, secret: s })} />
          ))}
        </ul>
      )}
    </div>
  );
}

/** Each event's name in the reader's language. */
const EVENT_LABELS: Record<WebhookEventType, MessageDescriptor> = {
  'order.completed': msg`Order completed`,
  'retirement.created': msg`Credits retired`,
  'retirement.cancelled': msg`Cancelled on the registry`,
  'topup.credited': msg`Top-up credited`,
  'withdrawal.completed': msg`Withdrawal paid out`,
  'approval.requested': msg`Approval requested`,
  'approval.decided': msg`Approval decided`,
  ping: msg`Ping event`,
};

function AddForm({ onAdded }: { onAdded: (url: string, secret: string) => Promise<void> }) {
  const { i18n } = useLingui();
  const [url, setUrl] = useState('');
  const [mode, setMode] = useState<WebhookMode>('live');
  const [events, setEvents] = useState<WebhookEventType[]>(['order.completed', 'retirement.created']);
  const write = useWrite(createWebhook);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const res = await write.run({ url: url.trim(), mode, events });
    if (res?.code === 0 && res.data) {
      setUrl('');
      await onAdded(res.data.url, res.data.secret);
    }
  };
  const toggle = (type: WebhookEventType) => setEvents((xs) => (xs.includes(type) ? xs.filter((x) => x !== type) : [...xs, type]));
  return (
    <form className="card webhooks__form" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="webhook-add-title">
      <h2 className="webhooks__heading" id="webhook-add-title">
        <Trans>Add an endpoint</Trans>
      </h2>
      <label className="field">
        <span className="field__label">
          <Trans>Receiver URL</Trans>
        </span>
        <input className="input" type="url" inputMode="url" autoComplete="off" placeholder="https://shop.example.sg/canopy" value={url} onChange={(e) => setUrl(e.target.value)} data-testid="webhook-url" />
      </label>
      <fieldset className="webhooks__fieldset">
        <legend className="field__label">
          <Trans>Mode</Trans>
        </legend>
        <div className="webhooks__modes">
          {(['live', 'test'] as const).map((m) => (
            <label key={m} className="webhooks__check">
              <input type="radio" name="webhook-mode" checked={mode === m} onChange={() => setMode(m)} data-testid={`webhook-mode-${m}`} />
              {m === 'live' ? <Trans>Live</Trans> : <Trans>Test</Trans>}
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="webhooks__fieldset">
        <legend className="field__label">
          <Trans>Events</Trans>
        </legend>
        <div className="webhooks__events">
          {WEBHOOK_EVENT_TYPES.map((type) => (
            <label key={type} className="webhooks__check">
              <input type="checkbox" checked={events.includes(type)} onChange={() => toggle(type)} data-testid={`webhook-event-${type}`} />
              {i18n._(EVENT_LABELS[type])}
            </label>
          ))}
        </div>
      </fieldset>
      <SubmitButton busy={write.busy} testId="webhook-add">
        <Trans>Add endpoint</Trans>
      </SubmitButton>
      <FormAlert id="webhook-alert" message={write.error} />
    </form>
  );
}

function EndpointCard({ endpoint, onChanged, onSecret }: { endpoint: WebhookEndpoint; onChanged: () => Promise<void>; onSecret: (secret: string) => void }) {
  const { t, i18n } = useLingui();
  const online = useOnline();
  const [log, setLog] = useState<WebhookAttempt[] | null>(null);
  const [asking, setAsking] = useState(false);
  const ping = useWrite(pingWebhook);
  const rotate = useWrite(rotateWebhook);
  const remove = useWrite(deleteWebhook);
  const showLog = async () => {
    const res = await loadDeliveries(endpoint.id);
    if (res.code === 0 && res.data) setLog(res.data.list);
  };
  const doPing = async () => {
    const res = await ping.run({ id: endpoint.id });
    if (res?.code === 0) {
      showToast(t`Ping sent.`, 'success');
      await onChanged();
      // The sender tries within a second or two; the log shows it then.
      setTimeout(() => void showLog(), 2000);
    }
  };
  const doRotate = async () => {
    const res = await rotate.run({ id: endpoint.id });
    if (res?.code === 0 && res.data) onSecret(res.data.secret);
  };
  const doDelete = async () => {
    const res = await remove.run({ id: endpoint.id });
    if (res?.code === 0) {
      showToast(t`Endpoint removed.`, 'success');
      await onChanged();
    }
  };
  const error = ping.error || rotate.error || remove.error;
  return (
    <li className="card webhooks__endpoint" data-testid="webhook-endpoint">
      <p className="webhooks__url">{endpoint.url}</p>
      <p className="muted webhooks__meta">
        <span className={`webhooks__badge webhooks__badge--${endpoint.mode}`}>{endpoint.mode === 'live' ? <Trans>Live</Trans> : <Trans>Test</Trans>}</span>{' '}
        {endpoint.disabled_at !== null && (
          <span className="webhooks__badge webhooks__badge--off" data-testid="webhook-disabled">
            <Trans>Disabled: deliveries kept failing</Trans>
          </span>
        )}{' '}
        {endpoint.events.map((e) => i18n._(EVENT_LABELS[e])).join(' · ')}
      </p>
      <div className="webhooks__actions">
        <button type="button" className="btn btn--small" disabled={!online || ping.busy} onClick={() => void doPing()} data-testid="webhook-ping">
          <Trans>Ping</Trans>
        </button>
        <button type="button" className="btn btn--ghost btn--small" disabled={!online} onClick={() => void (log ? setLog(null) : showLog())} data-testid="webhook-log">
          {log ? <Trans>Hide deliveries</Trans> : <Trans>Deliveries</Trans>}
        </button>
        <button type="button" className="btn btn--ghost btn--small" disabled={!online || rotate.busy} onClick={() => void doRotate()} data-testid="webhook-rotate">
          <Trans>Rotate secret</Trans>
        </button>
        {asking ? (
          <>
            <button type="button" className="btn btn--danger btn--small" disabled={!online || remove.busy} onClick={() => void doDelete()} data-testid="webhook-delete-confirm">
              <Trans>Delete</Trans>
            </button>
            <button type="button" className="btn btn--ghost btn--small" onClick={() => setAsking(false)}>
              <Trans>Keep</Trans>
            </button>
          </>
        ) : (
          <button type="button" className="btn btn--ghost btn--small" disabled={!online} onClick={() => setAsking(true)} data-testid="webhook-delete">
            <Trans>Delete</Trans>
          </button>
        )}
      </div>
      <FormAlert id={`webhook-${endpoint.id}-alert`} message={error} />
      {log && <DeliveryLog list={log} onResent={showLog} />}
    </li>
  );
}

function DeliveryLog({ list, onResent }: { list: WebhookAttempt[]; onResent: () => Promise<void> }) {
  const { t, i18n } = useLingui();
  const online = useOnline();
  const resend = useWrite(resendDelivery);
  if (list.length === 0) {
    return (
      <p className="muted webhooks__log-empty" data-testid="webhook-log-empty">
        <Trans>No deliveries yet.</Trans>
      </p>
    );
  }
  const statusText = (a: WebhookAttempt) => (a.status === 'delivered' ? t`Delivered` : a.status === 'failed' ? t`Failed` : t`Retrying`);
  return (
    <>
      <ul className="webhooks__log" aria-label={t`Deliveries`} data-testid="webhook-deliveries">
        {list.map((a) => {
          const at = formatDateTime(a.created_at);
          const code = a.status_code === 0 ? t`no answer` : String(a.status_code);
          return (
            <li key={a.id} className="webhooks__try" data-testid="webhook-delivery">
              <div className="webhooks__try-main">
                <span className="webhooks__try-type">{i18n._(EVENT_LABELS[a.type])}</span>
                <span className="muted">
                  {at} · <Trans>attempt {a.attempt}</Trans> · <Trans>response {code}</Trans> · {a.latency_ms} ms
                </span>
                <span className={`webhooks__status webhooks__status--${a.status}`}>{statusText(a)}</span>
              </div>
              <button
                type="button"
                className="btn btn--ghost btn--small"
                disabled={!online || resend.busy}
                onClick={() =>
                  void resend.run({ delivery_id: a.delivery_id }).then(async (res) => {
                    if (res?.code === 0) {
                      showToast(t`Sent again.`, 'success');
                      await onResent();
                    }
                  })
                }
                data-testid="webhook-resend"
              >
                <Trans>Resend</Trans>
              </button>
            </li>
          );
        })}
      </ul>
      <FormAlert id="webhook-resend-alert" message={resend.error} />
    </>
  );
}
