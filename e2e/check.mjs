// The assertions shared by the end-to-end scripts: every check counts, every
// failure is printed at once and kept for the summary.

export const failures = [];
let checks = 0;

export function check(cond, what, got) {
  checks++;
  if (!cond) {
    const detail = got === undefined ? "" : `\n    got: ${JSON.stringify(got, null, 2).replace(/\n/g, "\n    ")}`;
    failures.push(`${what}${detail}`);
    console.error(`FAIL ${what}${detail}`);
  }
}

export function eq(got, want, what) {
  check(Object.is(got, want), `${what}: want ${JSON.stringify(want)}`, got);
}

// checkCount is the number of checks made so far.
export function checkCount() {
  return checks;
}
