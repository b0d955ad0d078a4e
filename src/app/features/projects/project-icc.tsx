import { Trans, useLingui } from "@lingui/react/macro";
import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { wireLang } from "../../lib/i18n";
import { countryName } from "../../../shared/countries";
import { ICC_REASONS } from "../../../shared/icc/reasons";
import type { IccStatus, IccVerdict } from "../../../shared/icc/values";
import type { Project } from "../../../shared/schemas/content";
import { FactList } from "./project-parts";

// The project's Singapore carbon-tax block (docs/product.md#singapore-carbon-tax): the verdict, every reason
// in the catalogue's words with its rule's source, the rules version, and the facts it was judged on.

const verdictLabel: Record<IccVerdict, MessageDescriptor> = {
  eligible: msg`Eligible for Singapore carbon tax`,
  not_eligible: msg`Not eligible for Singapore carbon tax`,
  unknown: msg`Eligibility for Singapore carbon tax not known yet`,
};

const statusText: Record<IccStatus, MessageDescriptor> = {
  unknown: msg`Not known`,
  none: msg`None`,
  pending: msg`Applied for`,
  granted: msg`Given`,
};

export function IccVerdictBadge({ verdict }: { verdict: IccVerdict }) {
  const { i18n } = useLingui();
  return (
    <span
      className={`icc-badge icc-badge--${verdict}`}
      data-testid="icc-verdict"
      data-verdict={verdict}
    >
      {i18n._(verdictLabel[verdict])}
    </span>
  );
}

export function ProjectIcc({ project }: { project: Project }) {
  const { t, i18n } = useLingui();
  const icc = project.icc;
  const lang = wireLang();
  const version = icc.rules_version;
  const withRef = (status: IccStatus, ref: string) =>
    ref ? `${i18n._(statusText[status])} (${ref})` : i18n._(statusText[status]);
  const period =
    icc.reduction_start === null || icc.reduction_end === null
      ? t`Not known`
      : icc.reduction_start === icc.reduction_end
        ? String(icc.reduction_start)
        : `${icc.reduction_start}–${icc.reduction_end}`;
  return (
    <>
      <section
        className="section icc"
        aria-labelledby="project-icc"
        data-testid="project-icc"
      >
        <h2 className="section-title" id="project-icc">
          <Trans>Singapore carbon tax</Trans>
        </h2>
        <div className="card icc__verdict">
          <IccVerdictBadge verdict={icc.verdict} />
          {icc.reasons.length > 0 && (
            <ul className="icc__reasons">
              {icc.reasons.map((r) => (
                <li key={r.code} data-testid="icc-reason" data-code={r.code}>
                  {ICC_REASONS[r.code][lang]}
                  <span className="icc__source">{lang === "cn" ? r.source_cn || r.source : r.source}</span>
                </li>
              ))}
            </ul>
          )}
          <p className="muted icc__version">
            <Trans>Rules version {version}</Trans>
          </p>
        </div>
      </section>
      <FactList
        id="project-icc-facts"
        title={t`Facts the verdict rests on`}
        rows={[
          [t`Host country`, countryName(icc.host_country, lang) || t`Not known`],
          [t`Crediting programme`, icc.programme || t`Not known`],
          [
            t`Methodology`,
            icc.methodology_id
              ? `${icc.methodology_id}${icc.methodology_date ? ` (${icc.methodology_date})` : ""}`
              : t`Not known`,
          ],
          [t`Reduction period`, period],
          [
            t`Host country authorisation`,
            withRef(icc.authorisation, icc.authorisation_ref),
          ],
          [
            t`Corresponding adjustment`,
            withRef(icc.adjustment, icc.adjustment_ref),
          ],
        ]}
      />
    </>
  );
}
