// The steppers' keys, with the focus inside a stepper: → or Space steps, End runs to the end, Home
// restarts. Space and End belong to a focused button or link; nothing is taken from a text field,
// a dialog or a frame. Shared by the HTTP stepper and the sign-in scene.

import type { KeyboardEvent } from 'react';

export interface StepperKeyActions {
  /** A step is running: stepping waits. */
  busy: boolean;
  /** Nothing more to step (done, failed, or waiting for the person). */
  atEnd: boolean;
  step(): void;
  runToEnd(): void;
  restart(): void;
}

export function stepperKeyDown(actions: StepperKeyActions): (event: KeyboardEvent) => void {
  return (event) => {
    const target = event.target as Element;
    if (target.closest('input, select, textarea, dialog, iframe')) return;
    const onControl = target.closest('button, a, summary') !== null;
    const canStep = !actions.busy && !actions.atEnd;
    if ((event.key === 'ArrowRight' || (event.key === ' ' && !onControl)) && canStep) {
      event.preventDefault();
      actions.step();
    } else if (event.key === 'End' && !onControl && canStep) {
      event.preventDefault();
      actions.runToEnd();
    } else if (event.key === 'Home' && !onControl) {
      event.preventDefault();
      actions.restart();
    }
  };
}
