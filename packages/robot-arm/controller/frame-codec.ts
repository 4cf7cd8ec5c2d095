/**
 * Newline-delimited JSON frames on a byte stream (the controller socket), with a hard bound on the
 * size of one frame: a peer that never sends a newline cannot make the reader buffer without limit.
 * A frame that is too large, not UTF-8 JSON, or not a JSON object is reported as a {@link FrameError}
 * with a code; the reader then stops (the connection is closed by its owner), it never throws.
 */

/** Largest frame accepted, bytes without the newline (a 16-waypoint plan encodes well under 256 KiB). */
export const MAX_FRAME_BYTES = 1024 * 1024;

/** Why a frame was rejected. */
export interface FrameError {
  readonly code: 'frame_too_large' | 'bad_json';
  readonly message: string;
}

/** Splits a byte stream into JSON object frames. */
export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private failed = false;

  constructor(
    private readonly onFrame: (frame: Record<string, unknown>) => void,
    private readonly onError: (error: FrameError) => void,
    private readonly maxFrameBytes = MAX_FRAME_BYTES,
  ) {}

  /** Feeds bytes as they arrive; calls `onFrame` for every complete frame, `onError` once on the first bad one. */
  push(data: Buffer): void {
    let rest = data;
    while (!this.failed) {
      const newline = rest.indexOf(0x0a);
      if (newline === -1) {
        this.buffered += rest.length;
        if (this.buffered > this.maxFrameBytes) return this.fail({ code: 'frame_too_large', message: `a frame exceeded ${this.maxFrameBytes} bytes without a newline` });
        if (rest.length > 0) this.chunks.push(rest);
        return;
      }
      const line = Buffer.concat([...this.chunks, rest.subarray(0, newline)]);
      this.chunks = [];
      this.buffered = 0;
      rest = rest.subarray(newline + 1);
      if (line.length > this.maxFrameBytes) return this.fail({ code: 'frame_too_large', message: `a frame of ${line.length} bytes exceeds the ${this.maxFrameBytes}-byte limit` });
      if (line.length === 0) continue;
      const parsed = parseFrame(line);
      if ('code' in parsed) return this.fail(parsed);
      this.onFrame(parsed.frame);
    }
  }

  private fail(error: FrameError): void {
    this.failed = true;
    this.chunks = [];
    this.onError(error);
  }
}

function parseFrame(line: Buffer): { frame: Record<string, unknown> } | FrameError {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(line);
  } catch {
    return { code: 'bad_json', message: 'a frame is not valid UTF-8' };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { code: 'bad_json', message: `a frame is not JSON (${(error as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { code: 'bad_json', message: 'a frame must be a JSON object' };
  return { frame: value as Record<string, unknown> };
}

/** One frame as bytes on the wire. */
export function encodeFrame(message: object): string {
  return `${JSON.stringify(message)}\n`;
}
