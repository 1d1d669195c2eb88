/** Whether two stored timestamps (null: never saved) name the same instant, however each is written. */
export const sameTime = (expected: string | null, stored: string | null): boolean =>
  expected === null || stored === null ? expected === stored : Date.parse(expected) === Date.parse(stored);
