/**
 * CPU time and memory of a child process from /proc (Linux): utime+stime of every thread of the process
 * (V8's GC and libuv threads included), and VmRSS / VmHWM.
 */
import {readFileSync} from 'node:fs';
import v8 from 'node:v8';
import {execFileSync} from 'node:child_process';

const ticksPerSecond = (() => {
	try {
		return Number(execFileSync('getconf', ['CLK_TCK'], {encoding: 'utf8'}).trim()) || 100;
	} catch {
		return 100;
	}
})();

/** CPU seconds (user + system) the process has used so far. */
export function cpuSeconds(pid: number): number {
	const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	// The command name (field 2) may hold spaces; the fields after it start after the last ')'.
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	// Field 14 utime and 15 stime; fields[0] is field 3 (state).
	return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

/**
 * Resident set size now and at its peak, in MiB, and now split into anonymous memory (the JS heap, malloc, stacks)
 * and pages of files (the executable's code and data, shared libraries).
 */
export function memoryMiB(pid: number): {readonly rss: number; readonly peak: number; readonly anon: number; readonly file: number} {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
	return {rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024, anon: kib('RssAnon') / 1024, file: kib('RssFile') / 1024};
}

/** CPU share of one core used by `pid` between `start()` and the returned `stop()` (1 = a whole core). */
export function cpuWindow(pid: number): () => {readonly share: number; readonly seconds: number} {
	const cpu0 = cpuSeconds(pid);
	const t0 = performance.now();
	return () => {
		const seconds = (performance.now() - t0) / 1000;
		return {share: (cpuSeconds(pid) - cpu0) / seconds, seconds};
	};
}

/**
 * Bytes V8 has allocated in this process so far (`total_allocated_bytes`, Node 24+; @types/node does not list it
 * yet): the difference over a window is what the garbage collector gets from it.
 */
export function allocatedBytes(): number {
	return (v8.getHeapStatistics() as v8.HeapInfo & {readonly total_allocated_bytes: number}).total_allocated_bytes;
}
