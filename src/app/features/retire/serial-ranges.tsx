/** A retirement's serial ranges, one per line; a range of more than one serial breaks after its dash, which
 *  a no-break space keeps with the first serial (never alone on a line). */
export function SerialRanges({ serials, testId }: { serials: ReadonlyArray<{ from: string; to: string }>; testId?: string }) {
  return (
    <ul className="serials" data-testid={testId}>
      {serials.map((s) => (
        <li key={s.from}>
          {s.from === s.to ? (
            <code>{s.from}</code>
          ) : (
            <>
              <code>{s.from}</code>
              {'\u00a0–'}
              <br />
              <code>{s.to}</code>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
