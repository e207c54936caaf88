/**
 * Where the scheduler reads the time: the system clock in production; tests give their own, so they
 * drive periods without sleeping.
 */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}
