// Closing a server's client quickly. The SDK's stdio close ends the child's stdin, then waits 2 s
// before SIGTERM and 2 s more before SIGKILL; many servers do not exit when stdin ends, so every
// headless run with one ended 2 s late. Here the signals follow after a short grace instead.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

export interface CloseGrace {
  /** After stdin ends, how long the server has to exit before SIGTERM. */
  termAfterMs: number;
  /** After SIGTERM, how long before SIGKILL. */
  killAfterMs: number;
}

export const DEFAULT_CLOSE_GRACE: CloseGrace = { termAfterMs: 200, killAfterMs: 1_000 };

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // ESRCH: it exited between the check and the signal, which is what we wanted.
  }
}

/** Closes the client; a stdio child still running after the grace is sent SIGTERM, then SIGKILL. */
export async function closeClient(client: Client, transport: Transport | undefined, grace: CloseGrace = DEFAULT_CLOSE_GRACE): Promise<void> {
  // Only stdio transports have a pid; read it before close() forgets the process.
  const pid = transport && 'pid' in transport && typeof transport.pid === 'number' ? transport.pid : undefined;
  const timers: NodeJS.Timeout[] = [];
  if (pid !== undefined) {
    timers.push(setTimeout(() => signal(pid, 'SIGTERM'), grace.termAfterMs).unref());
    timers.push(setTimeout(() => signal(pid, 'SIGKILL'), grace.termAfterMs + grace.killAfterMs).unref());
  }
  try {
    await client.close();
  } finally {
    // close() resolves once the child has exited: no signal may reach a later process with its pid.
    for (const timer of timers) clearTimeout(timer);
  }
}
