// What a failing check expected and what it got, as the exercise results show it; the SDK checks'
// report uses the same markup, so both read (and style) alike.

export interface ExpectedActualProps {
  expected: string | undefined;
  actual: string | undefined;
  expectedLabel: string;
  actualLabel: string;
}

export function ExpectedActual({ expected, actual, expectedLabel, actualLabel }: ExpectedActualProps) {
  if (expected === undefined && actual === undefined) return null;
  return (
    <dl className="test-result__values">
      {expected !== undefined && (
        <>
          <dt>{expectedLabel}</dt>
          <dd>
            <pre className="diff-line--expected">{expected}</pre>
          </dd>
        </>
      )}
      {actual !== undefined && (
        <>
          <dt>{actualLabel}</dt>
          <dd>
            <pre className="diff-line--received">{actual}</pre>
          </dd>
        </>
      )}
    </dl>
  );
}
