/**
 * `planwatch … >&-`: started with stdout closed, Node reopens fd 1 on /dev/null (src/node.cc, PlatformInit:
 * `open("/dev/null", O_RDWR)` for a closed stdio fd), and everything written would be lost while the run reports
 * success. A shell's `> /dev/null` opens it write-only; only Node's own reopening is read-write, which is how the
 * two are told apart. Linux only (/proc/self/fdinfo); elsewhere nothing is detected.
 *
 * What cannot be told apart: a parent that hands over /dev/null read-write itself (Node's `stdio: 'ignore'`,
 * Python's DEVNULL do). Where stderr is such a /dev/null too, nobody would read the line anyway and the caller
 * wants the exit code alone: not taken as closed. A caller that discards only stdout should open /dev/null
 * write-only (`> /dev/null`).
 */
import fs from 'node:fs';

/** O_ACCMODE and O_RDWR of Linux (fcntl.h). */
const accessMode = 0o3;
const readWrite = 0o2;

/** Whether `fd` is /dev/null opened read-write (how Node reopens a closed stdio fd). */
function isReadWriteDevNull(fd: number): boolean {
	try {
		const info = fs.readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8');
		const flags = /^flags:\s*([0-7]+)$/m.exec(info)?.[1];
		if (flags === undefined || (Number.parseInt(flags, 8) & accessMode) !== readWrite) {
			return false;
		}

		const out = fs.fstatSync(fd);
		return out.isCharacterDevice() && out.rdev === fs.statSync('/dev/null').rdev;
	} catch {
		return false;
	}
}

export function stdoutWasClosed(): boolean {
	return isReadWriteDevNull(1) && !isReadWriteDevNull(2);
}
