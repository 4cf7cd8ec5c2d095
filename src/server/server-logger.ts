/** Where the server reports its own faults (never sent to clients). */
export interface ServerLogger {
  /** Records one fault with structured detail (tool name, error message, stack). */
  error(message: string, detail?: Record<string, unknown>): void;
}
