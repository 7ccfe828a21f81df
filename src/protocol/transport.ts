// The byte channel between an MCP client and a server process: the server's stdin one way, its
// stdout the other. Hosts (a Node child process, the tap in a WebContainer, a Web Worker) all
// provide this shape, so the client never knows which one it talks to.

export type Unsubscribe = () => void;

export interface ByteTransport {
  /** Send bytes to the server's stdin. */
  write(bytes: Uint8Array): void;
  /** Close the server's stdin (EOF): the stdio transport's way of saying goodbye. */
  end(): void;
  /** Chunks from the server's stdout, exactly as they arrived: one chunk is not one frame. */
  onData(listener: (chunk: Uint8Array) => void): Unsubscribe;
  /** The channel is gone (process exited, socket closed); `reason` is for people to read. */
  onClose(listener: (reason: string) => void): Unsubscribe;
}
