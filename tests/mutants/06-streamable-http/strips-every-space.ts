import type { Mutant } from '../mutant.ts';

export default {
  failureMode: "every space after the colon is dropped, not just one",
  why: "Data that starts with spaces (indented text, a JSON string) arrives changed.",
  section: "sse",
  file: "src/protocol/framing/sse.ts",
  edits: [
    { find: "    const valueStart = colon === end ? end : bytes[colon + 1] === SPACE ? colon + 2 : colon + 1;", replace: "    let valueStart = colon === end ? end : colon + 1;\n    while (valueStart < end && bytes[valueStart] === SPACE) valueStart++; // MUTANT: all spaces" },
  ],
  caughtBy: ["drops one space after the colon; a comment or an unknown field changes nothing; a line without a colon is a field with an empty value"],
} satisfies Mutant;
