// Splits a command written as one string (`--between "node client.js --flag 'a b'"`) into argv the
// way a POSIX shell splits words, without running a shell: no variables, globs, pipes or
// redirections, only whitespace, 'single' and "double" quotes and backslash escapes. The program
// is then spawned directly, as the tap spawns every program.

export function splitCommandWords(command: string): string[] | { error: string } {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < command.length; i++) {
    const char = command[i] as string;
    if (quote === "'") {
      if (char === "'") quote = null;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = null;
      // Inside double quotes a backslash escapes only what a shell lets it escape there.
      else if (char === '\\' && i + 1 < command.length && '"\\$`'.includes(command[i + 1] as string)) word += command[++i];
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\') {
      if (i + 1 === command.length) return { error: 'the command ends with a lone backslash' };
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote) return { error: `unbalanced ${quote} quote in the command` };
  if (inWord) words.push(word);
  if (words.length === 0) return { error: 'the command is empty' };
  return words;
}
