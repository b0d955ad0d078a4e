import { Plural } from "@lingui/react/macro";
import type { Project } from "../../shared/schemas/content";

/** How long a purchase of the project stays in progress before its credits arrive, in words: "2 hours". */
export function CycleText({
  project,
}: {
  project: Pick<Project, "cycle_value" | "cycle_unit">;
}) {
  const n = project.cycle_value;
  if (project.cycle_unit === "minutes")
    return <Plural value={n} one="# minute" other="# minutes" />;
  if (project.cycle_unit === "hours")
    return <Plural value={n} one="# hour" other="# hours" />;
  return <Plural value={n} one="# day" other="# days" />;
}
