// A seccomp program (classic BPF, as bwrap --seccomp loads it) that refuses to create Unix-domain
// sockets. A network namespace closes TCP/UDP and abstract sockets, but a socket file the command
// can see (a dev server's control socket in the project, Docker Desktop's ~/.docker/desktop/docker.sock,
// a tmux -S socket, an agent's socket in home) is reachable through a read-only mount: connect() on
// it is not a write. The service on the other end then acts outside the sandbox. Creating the socket
// is the one step every client takes, so that is what is refused (EPERM), as Claude Code's sandbox does.
// io_uring is refused too: it can create sockets without the socket() system call; and the keyring
// calls, whose keys outlive the sandbox.

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
const X32 = 0x40000000;

interface ArchTable {
  /** AUDIT_ARCH_* of the native ABI; its socket() numbers (x32 has its own); calls refused outright. */
  native: { arch: number; socket: number[]; deny: number[] };
  /** The 32-bit ABI the same kernel runs: its socket creation calls are refused whatever the family (their arguments may sit in memory). */
  compat: { arch: number; deny: number[] };
}

// Refused outright besides io_uring: add_key, request_key, keyctl (the user's keyring outlives the
// sandbox and is shared by every process of the user).
const TABLES: Partial<Record<NodeJS.Architecture, ArchTable>> = {
  x64: {
    native: { arch: 0xc000003e, socket: [41, X32 | 41], deny: [IO_URING_SETUP, 248, 249, 250, X32 | 248, X32 | 249, X32 | 250] },
    compat: { arch: 0x40000003, deny: [IO_URING_SETUP, 102 /* socketcall */, 359 /* socket */, 286, 287, 288] },
  },
  arm64: {
    native: { arch: 0xc00000b7, socket: [198], deny: [IO_URING_SETUP, 217, 218, 219] },
    compat: { arch: 0x40000028, deny: [IO_URING_SETUP, 281 /* socket */, 309, 310, 311] },
  },
};

/** An instruction whose jumps name labels, resolved once the program is laid out. */
type Insn = { code: number; k: number; jt?: string; jf?: string; label?: string };

/**
 * The filter for this machine's architecture, or undefined where cairn has no table for it (the
 * sandbox then runs without it, as before). Unknown architectures (a foreign ABI) are let through:
 * the kernel only runs the native and compat ones.
 */
export function unixSocketFilter(arch: NodeJS.Architecture = process.arch): Buffer | undefined {
  const table = TABLES[arch];
  if (table === undefined) return undefined;
  const { native, compat } = table;
  const ld = (k: number, label?: string): Insn => ({ code: LD_W_ABS, k, ...(label ? { label } : {}) });
  const jeq = (k: number, jt?: string, jf?: string): Insn => ({ code: JEQ_K, k, ...(jt ? { jt } : {}), ...(jf ? { jf } : {}) });
  const ret = (k: number, label?: string): Insn => ({ code: RET_K, k, ...(label ? { label } : {}) });
  const prog: Insn[] = [
    ld(ARCH),
    jeq(native.arch, 'native'),
    jeq(compat.arch, 'compat'),
    ret(RET_ALLOW),
    ld(NR, 'native'),
    ...native.deny.map((nr) => jeq(nr, 'deny')),
    ...native.socket.map((nr, i) => jeq(nr, 'socket', i === native.socket.length - 1 ? 'allow' : undefined)),
    ld(ARG0_LOW, 'socket'),
    jeq(AF_UNIX, 'deny'),
    ret(RET_ALLOW, 'allow'),
    ld(NR, 'compat'),
    ...compat.deny.map((nr) => jeq(nr, 'deny')),
    ret(RET_ALLOW),
    ret(RET_EPERM, 'deny'),
  ];
  const at = new Map(prog.flatMap((insn, i) => (insn.label ? [[insn.label, i] as const] : [])));
  const offset = (from: number, label: string | undefined): number => (label === undefined ? 0 : (at.get(label) ?? from + 1) - from - 1);

  const out = Buffer.alloc(prog.length * 8);
  prog.forEach((insn, i) => {
    out.writeUInt16LE(insn.code, i * 8);
    out.writeUInt8(offset(i, insn.jt), i * 8 + 2);
    out.writeUInt8(offset(i, insn.jf), i * 8 + 3);
    out.writeUInt32LE(insn.k >>> 0, i * 8 + 4);
  });
  return out;
}
