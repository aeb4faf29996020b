// A seccomp program (classic BPF, as bwrap --seccomp loads it) that refuses to create Unix-domain
// sockets. A network namespace closes TCP/UDP and abstract sockets, but a socket file the command
// can see (a dev server's control socket in the project, Docker Desktop's ~/.docker/desktop/docker.sock,
// a tmux -S socket, an agent's socket in home) is reachable through a read-only mount: connect() on
// it is not a write. The service on the other end then acts outside the sandbox. Creating the socket
// is the one step every client takes, so that is what is refused (EPERM), as Claude Code's sandbox does.
// io_uring is refused too: it can create sockets without the socket() system call.

// struct seccomp_data: int nr; u32 arch; u64 instruction_pointer; u64 args[6] (little-endian hosts).
const NR = 0;
const ARCH = 4;
const ARG0_LOW = 16;

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_EPERM = 0x00050000 | 1;
const AF_UNIX = 1;
const IO_URING_SETUP = 425; // the same number on every architecture

interface ArchTable {
  /** AUDIT_ARCH_* of the native ABI, and its socket() numbers (x32 has its own). */
  native: { arch: number; socket: number[] };
  /** The 32-bit ABI the same kernel runs: its socket creation calls are refused whatever the family (their arguments may sit in memory). */
  compat: { arch: number; deny: number[] };
}

const TABLES: Partial<Record<NodeJS.Architecture, ArchTable>> = {
  x64: { native: { arch: 0xc000003e, socket: [41, 0x40000000 | 41] }, compat: { arch: 0x40000003, deny: [102 /* socketcall */, 359 /* socket */] } },
  arm64: { native: { arch: 0xc00000b7, socket: [198] }, compat: { arch: 0x40000028, deny: [281 /* socket */] } },
};

type Insn = [code: number, jt: number, jf: number, k: number];

/**
 * The filter for this machine's architecture, or undefined where cairn has no table for it (the
 * sandbox then runs without it, as before). Unknown architectures (a foreign ABI) are let through:
 * the kernel only runs the native and compat ones.
 */
export function unixSocketFilter(arch: NodeJS.Architecture = process.arch): Buffer | undefined {
  const table = TABLES[arch];
  if (table === undefined) return undefined;
  const { native, compat } = table;
  // Layout: [arch check] [native block] [compat block] [allow] [deny]; jumps are relative to the next instruction.
  const nativeBlock: Insn[] = [[LD_W_ABS, 0, 0, NR], [JEQ_K, 0, 0, IO_URING_SETUP], ...native.socket.map((nr): Insn => [JEQ_K, 0, 0, nr]), [LD_W_ABS, 0, 0, ARG0_LOW]];
  const compatBlock: Insn[] = [[LD_W_ABS, 0, 0, NR], [JEQ_K, 0, 0, IO_URING_SETUP], ...compat.deny.map((nr): Insn => [JEQ_K, 0, 0, nr])];
  const prog: Insn[] = [[LD_W_ABS, 0, 0, ARCH], [JEQ_K, 0, 0, native.arch], [JEQ_K, 0, 0, compat.arch], [RET_K, 0, 0, RET_ALLOW]];
  const nativeStart = prog.length;
  prog.push(...nativeBlock, [JEQ_K, 0, 0, AF_UNIX], [RET_K, 0, 0, RET_ALLOW]);
  const compatStart = prog.length;
  prog.push(...compatBlock, [RET_K, 0, 0, RET_ALLOW]);
  const deny = prog.length;
  prog.push([RET_K, 0, 0, RET_EPERM]);
  const allow = deny - 1; // the compat block's final allow

  const to = (from: number, target: number): number => target - from - 1;
  // Arch dispatch.
  prog[1] = [JEQ_K, to(1, nativeStart), 0, native.arch];
  prog[2] = [JEQ_K, to(2, compatStart), 0, compat.arch];
  // Native: io_uring_setup denied; socket(AF_UNIX, ...) denied; every other call allowed.
  const socketCheck = nativeStart + nativeBlock.length - 1; // the load of args[0]
  prog[nativeStart + 1] = [JEQ_K, to(nativeStart + 1, deny), 0, IO_URING_SETUP];
  native.socket.forEach((nr, i) => {
    const at = nativeStart + 2 + i;
    const isLast = i === native.socket.length - 1;
    prog[at] = [JEQ_K, to(at, socketCheck), isLast ? to(at, allow) : 0, nr];
  });
  prog[socketCheck + 1] = [JEQ_K, to(socketCheck + 1, deny), 0, AF_UNIX]; // else the native allow after it
  // Compat: io_uring_setup and every socket creation call denied.
  prog[compatStart + 1] = [JEQ_K, to(compatStart + 1, deny), 0, IO_URING_SETUP];
  compat.deny.forEach((nr, i) => {
    const at = compatStart + 2 + i;
    prog[at] = [JEQ_K, to(at, deny), 0, nr];
  });

  const out = Buffer.alloc(prog.length * 8);
  prog.forEach(([code, jt, jf, k], i) => {
    out.writeUInt16LE(code, i * 8);
    out.writeUInt8(jt, i * 8 + 2);
    out.writeUInt8(jf, i * 8 + 3);
    out.writeUInt32LE(k >>> 0, i * 8 + 4);
  });
  return out;
}
