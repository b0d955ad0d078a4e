import type { SelectHTMLAttributes } from "react";
import "./forms.css";

/**
 * A native select whose chosen option is shown by a label of its own, which wraps between words: a
 * native select draws its text on one line and cuts what does not fit. The select lies transparent over
 * the label, so a tap opens the phone's own picker and the keyboard and screen readers use the select.
 */
export function WrapSelect({
  shown,
  className,
  children,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & { shown: string }) {
  return (
    <span className={className ? `wrap-select ${className}` : "wrap-select"}>
      <span className="wrap-select__shown input" aria-hidden="true">
        {shown}
      </span>
      <select {...select} className="wrap-select__select">
        {children}
      </select>
    </span>
  );
}
