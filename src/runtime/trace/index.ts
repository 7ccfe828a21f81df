// The trace format in one import: types, the writer, the streaming reader, the framing guess.
export * from './trace-format.ts';
export * from './trace-reader.ts';
export * from './trace-serialize.ts';
export { checkEvent, checkHeader } from './trace-validate.ts';
export { guessFraming } from './framing-guess.ts';
