/** A gate a test opens: lets a tool handler run up to a point and wait there until the test says so (no sleeps). */
export interface Gate {
  /** Resolves once `open()` was called. */
  opened: Promise<void>;
  open(): void;
}

/** A new, closed gate. */
export function gate(): Gate {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}
