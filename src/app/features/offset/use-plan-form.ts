import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import { useLiveQuery } from 'dexie-react-hooks';
import { useWrite } from '../../components/forms/use-write';
import { showToast } from '../../components/toast';
import { pick } from '../../lib/format';
import { serverNow } from '../../lib/server-time';
import { refreshProjects } from '../../lib/sync';
import { cachedProjects } from '../../lib/cached-projects';
import { localeToWire, type Locale } from '../../../shared/api';
import { errorMessage } from '../../../shared/errors';
import { firstDueAt, offsetConsentText } from '../../../shared/offset';
import type { OffsetPlan } from '../../../shared/schemas/offset';
import { keepPlan, sendChange, sendCreate } from './api';

// The subscribe (or change) form's state and its one write: the project (in progress), tons a month, the
// day, the consent text she confirms with her payment password, and the first buy it leads to.

/** Whole tons typed, or NaN. */
const parseTons = (text: string) => (/^\d{1,7}$/.test(text.trim()) ? Number(text.trim()) : NaN);

/** Today's day of the month in SGT: the default day of a new plan. */
const todaySgt = () => Number(new Date(serverNow() + 8 * 3_600_000).toISOString().slice(8, 10));

function useProjects() {
  const projects = useLiveQuery(() => cachedProjects({ status: 'in_progress' }), []);
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    void refreshProjects({ status: 'in_progress' })
      .catch(() => undefined)
      .finally(() => setAsked(true));
  }, []);
  return { projects, asked };
}

export function usePlanForm(memId: number, init: { projectId?: number; tons?: number; plan?: OffsetPlan }) {
  const { t, i18n } = useLingui();
  const lang = localeToWire(i18n.locale as Locale);
  const navigate = useNavigate();
  const { projects, asked } = useProjects();
  const [chosen, setChosen] = useState(init.plan?.project_id ?? init.projectId ?? 0);
  const [tonsText, setTonsText] = useState(String(init.plan?.tons ?? init.tons ?? 1));
  const [day, setDay] = useState(init.plan?.day ?? todaySgt());
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const project = projects?.find((p) => p.id === chosen) ?? (init.plan ? undefined : projects?.[0]);
  const tons = parseTons(tonsText);
  const tonsError = !Number.isInteger(tons) || tons < 1 ? errorMessage('offset_tons_invalid', lang) : project && tons < project.min_tons ? errorMessage('below_min_tons', lang, { n: project.min_tons }) : project && tons > project.max_tons ? errorMessage('above_max_tons', lang, { n: project.max_tons }) : '';
  const consent = project ? offsetConsentText(lang, { tons: Number.isInteger(tons) ? tons : 0, project: pick(project, 'name'), day }) : '';
  const first = firstDueAt(serverNow(), day);
  const input = useMemo(() => ({ tons, day, id: init.plan?.id ?? 0, project_id: project?.id ?? 0 }), [tons, day, init.plan?.id, project?.id]);
  const write = useWrite<string, OffsetPlan>(
    (password, key) => (init.plan ? sendChange({ id: init.plan.id, tons, day, password }, key) : sendCreate({ project_id: input.project_id, tons, day, password }, key)),
    () => input,
  );
  const confirm = async (password: string): Promise<number | null> => {
    const res = await write.run(password);
    if (res?.code === 0) {
      await keepPlan(memId, res.data);
      showToast(init.plan ? t`Monthly offset changed` : t`Monthly offset set up`, 'success');
      setConfirming(false);
      void navigate({ to: '/pages/profile/offsets' });
    }
    return res?.code ?? null;
  };
  return {
    projects,
    loading: !projects || (!projects.length && !asked),
    project,
    setProject: setChosen,
    fields: { tonsText, setTonsText, tons, day, setDay },
    tonsError: touched ? tonsError : '',
    consent,
    first,
    submit: () => {
      setTouched(true);
      if (!tonsError && project) setConfirming(true);
    },
    confirming,
    closeConfirm: () => {
      write.setError('');
      setConfirming(false);
    },
    confirm,
    write,
  };
}
