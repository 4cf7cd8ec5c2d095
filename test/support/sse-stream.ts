/**
 * Reading an event-stream response body as it arrives: each JSON-RPC message is handed out as
 * soon as its event is complete, so a test can answer a server request (an elicitation) or act on
 * an acknowledgement while the stream stays open. Events without a `data:` line are skipped.
 */

/** The messages of `body`, one per event, in order; ends when the server ends the stream. */
export async function* sseMessagesAsTheyArrive(body: NonNullable<Response['body']>): AsyncGenerator<Record<string, unknown>> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const data = buffer.slice(0, cut).split('\n').find((l) => l.startsWith('data: '));
      buffer = buffer.slice(cut + 2);
      if (data !== undefined) yield JSON.parse(data.slice(6)) as Record<string, unknown>;
    }
  }
}
