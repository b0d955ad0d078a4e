import { Trans } from '@lingui/react/macro';
import { formatDate } from '../../lib/format';
import type { Certificate } from '../../../shared/schemas/retire';

// Where a retirement stands on its registry (docs/product.md#registry-cancellation): cancelled, with the
// day, the registry's own reference and the units as the registry writes them, and a link to the registry's
// public record; or waiting to be cancelled, with the day it is due by. A certificate kept on this device
// before these facts existed shows neither.

/** A registry day (YYYY-MM-DD, SGT) as the app writes days: "3 Dec 2026", "2026年12月3日". */
const registryDay = (day: string) => formatDate(Date.parse(`${day}T00:00:00+08:00`));

type RegistryFacts = Pick<Certificate, 'registry' | 'registry_status' | 'registry_serials' | 'registry_reference' | 'registry_cancelled_on' | 'registry_due_on' | 'registry_url'>;

export function RegistryStatus({ c }: { c: Partial<RegistryFacts> & Pick<Certificate, 'registry'> }) {
  if (c.registry_status === 'cancelled' && c.registry_cancelled_on) {
    const registry = c.registry;
    const day = registryDay(c.registry_cancelled_on);
    const reference = c.registry_reference ?? '';
    return (
      <div className="notice registry-status registry-status--cancelled" role="status" data-testid="registry-status" data-status="cancelled">
        <p>
          <Trans>
            Cancelled on {registry} on {day}, reference <code>{reference}</code>
          </Trans>
        </p>
        <RegistrySerials c={c} />
        <RegistryLink url={c.registry_url} />
      </div>
    );
  }
  if (c.registry_status === 'pending') {
    const registry = c.registry;
    const due = c.registry_due_on ? registryDay(c.registry_due_on) : '';
    return (
      <div className="notice notice--warn registry-status" role="status" data-testid="registry-status" data-status="pending">
        <p>{due ? <Trans>Waiting to be cancelled on {registry} (due by {due})</Trans> : <Trans>Waiting to be cancelled on {registry}</Trans>}</p>
        <RegistrySerials c={c} />
        <RegistryLink url={c.registry_url} />
      </div>
    );
  }
  return null;
}

function RegistrySerials({ c }: { c: Partial<RegistryFacts> }) {
  const serials = c.registry_serials ?? [];
  if (serials.length === 0) return null;
  return (
    <>
      <p className="registry-status__label">
        <Trans>Registry serials</Trans>
      </p>
      <ul className="serials registry-status__serials" data-testid="registry-serials">
        {serials.map((s) => (
          <li key={s}>
            <code>{s}</code>
          </li>
        ))}
      </ul>
    </>
  );
}

function RegistryLink({ url }: { url: string | undefined }) {
  if (!url) return null;
  return (
    <p className="registry-status__link">
      <a href={url} target="_blank" rel="noopener noreferrer" data-testid="registry-link">
        <Trans>Check it on the registry</Trans>
      </a>
    </p>
  );
}

/** One line of where a retirement stands on its registry, for the member's list of certificates. */
export function RegistryStatusLine({ c }: { c: Partial<RegistryFacts> & Pick<Certificate, 'registry'> }) {
  const registry = c.registry;
  if (c.registry_status === 'cancelled' && c.registry_cancelled_on) {
    const day = registryDay(c.registry_cancelled_on);
    const reference = c.registry_reference ?? '';
    return (
      <p className="muted" data-testid="certificate-item-registry" data-status="cancelled">
        <Trans>
          Cancelled on {registry} on {day}, reference {reference}
        </Trans>
      </p>
    );
  }
  if (c.registry_status !== 'pending') return null;
  const due = c.registry_due_on ? registryDay(c.registry_due_on) : '';
  return (
    <p className="muted" data-testid="certificate-item-registry" data-status="pending">
      {due ? <Trans>Waiting to be cancelled on {registry} (due by {due})</Trans> : <Trans>Waiting to be cancelled on {registry}</Trans>}
    </p>
  );
}
