/**
 * Frame time in process: the App rendered by Ink (interactive, incremental, as `-o tui` does) into a fake 160×40
 * terminal, fed by a real Store. A frame is measured from the change (a store upsert, or the 1 Hz clock tick)
 * to Ink's `onRender` after it wrote the frame: the change itself (a store upsert adapts the object; also given
 * on its own), React render, Yoga layout, Ink's output stage and the write.
 * Workloads: the object list with N objects (the watch workload's objects and probe updates), and the tree of
 * one KUDO Instance with a 500-step plan whose running step moves on.
 *
 * Run with NODE_ENV=production (bench.mjs sets it), like the shipped bundle; frames are spaced so Ink's throttle
 * never delays one.
 */
import {EventEmitter} from 'node:events';
import {writeFileSync} from 'node:fs';
import {Session} from 'node:inspector/promises';
import path from 'node:path';
import {setTimeout as sleep} from 'node:timers/promises';
import {render} from 'ink';
import type {KubeObject, ResourceKind} from '../../source/core/kube-object.js';
import {bigPlanInstance, bigPlanOperatorVersion} from '../helpers/big-plan.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {Store} from '../../source/state/store.js';
import {App} from '../../source/ui/app.js';
import {FakeWait} from '../helpers/fake-wait.js';
import type {ResourceDef} from '../helpers/watch-server.js';
import {allocatedBytes} from './proc-stats.js';
import {percentile} from './stats.js';
import {loadWorkload} from './workload.js';

class FakeTerminal extends EventEmitter {
	readonly isTTY = true;
	bytes = 0;
	/** What was written, kept while `keep` (the first frames: which rows are on screen). */
	text = '';
	keep = true;
	constructor(
		readonly columns: number,
		readonly rows: number,
	) {
		super();
	}

	write = (data: string): boolean => {
		this.bytes += Buffer.byteLength(data);
		if (this.keep) {
			this.text += data;
		}

		return true;
	};
}

class FakeKeys extends EventEmitter {
	readonly isTTY = true;
	read = () => null;
	setEncoding(): void {}
	setRawMode(): void {}
	resume(): void {}
	pause(): void {}
	ref(): void {}
	unref(): void {}
}

export type FrameFigures = {
	readonly name: string;
	readonly frames: number;
	readonly p50: number;
	readonly p99: number;
	/** Of the median frame's time: applying the change (the store adapting the object), before rendering. */
	readonly changeP50: number;
	/** Main-thread CPU per frame (process.cpuUsage), ms; for changes off screen, per change. */
	readonly cpuMs: number;
	/** KiB V8 allocated per frame (or change): what the garbage collector gets; load does not move it. */
	readonly kibPerFrame: number;
	readonly bytesPerFrame: number;
	/** Changes off screen: Ink frames written per change (the design rule says 0); `frames` counts the changes. */
	readonly framesPerChange?: number;
};

type Mounted = {
	readonly store: Store;
	readonly clock: FakeClock;
	readonly terminal: FakeTerminal;
	/** Resolves when Ink has written the next frame. */
	nextFrame(): Promise<void>;
	/** Frames Ink has written so far. */
	written(): number;
	unmount(): void;
};

function mount(targets: readonly string[], fill: (store: Store) => void): Mounted {
	const clock = new FakeClock(Date.now());
	const store = new Store(clock);
	fill(store);
	store.apply({type: 'connection', state: {status: 'live'}});
	store.apply({type: 'synced'});
	const terminal = new FakeTerminal(160, 40);
	let resolveFrame: (() => void) | undefined;
	let written = 0;
	const wait = new FakeWait({startedAt: clock.now()});
	const app = render(<App store={store} clock={clock} wait={wait} header={{context: 'bench', scope: 'bench'}} targets={targets} ascii={false} color onQuit={() => {}} />, {
		stdout: terminal as unknown as NodeJS.WriteStream,
		stdin: new FakeKeys() as unknown as NodeJS.ReadStream,
		exitOnCtrlC: false,
		patchConsole: false,
		interactive: true,
		incrementalRendering: true,
		maxFps: 1000,
		onRender() {
			written++;
			const resolve = resolveFrame;
			resolveFrame = undefined;
			resolve?.();
		},
	});
	return {
		store,
		clock,
		terminal,
		written: () => written,
		nextFrame: async () =>
			new Promise<void>(resolve => {
				resolveFrame = resolve;
			}),
		unmount: () => {
			app.unmount();
		},
	};
}

/** `--frames-profile DIR`: each measured phase's CPU profile is written there (warm-up left out). */
let profileDir: string | undefined;
/** `--frames-heap-profile`: a sampling heap profile of what each phase allocates instead (collected objects kept). */
let heapProfile = false;

export function profileFramesInto(dir: string | undefined, heap = false): void {
	profileDir = dir;
	heapProfile = heap;
}

/** A CPU profile of `run` into profileDir/`name`.cpuprofile when profiling (node:inspector, this process). */
async function profiled<T>(name: string, run: () => Promise<T>): Promise<T> {
	if (profileDir === undefined) {
		return run();
	}

	const session = new Session();
	session.connect();
	const file = path.join(profileDir, name.replaceAll(/[^\w.-]+/g, '_'));
	if (heapProfile) {
		await session.post('HeapProfiler.startSampling', {samplingInterval: 512, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true});
		try {
			return await run();
		} finally {
			const {profile} = await session.post('HeapProfiler.stopSampling');
			writeFileSync(`${file}.heapprofile`, JSON.stringify(profile));
			session.disconnect();
		}
	}

	await session.post('Profiler.enable');
	// 100 µs: a frame of a few ms gets tens of samples, not a handful.
	await session.post('Profiler.setSamplingInterval', {interval: 100});
	await session.post('Profiler.start');
	try {
		return await run();
	} finally {
		const {profile} = await session.post('Profiler.stop');
		writeFileSync(`${file}.cpuprofile`, JSON.stringify(profile));
		session.disconnect();
	}
}

/**
 * `prepare(i)` makes the i-th change's input (the objects a watch would have parsed: building them is the bench's work,
 * not planwatch's) and returns what applies it, which is all that is timed.
 */
async function measure(name: string, mounted: Mounted, frames: number, prepare: (i: number) => () => void): Promise<FrameFigures> {
	// Warm up: first frames compile and fill caches.
	for (let i = 0; i < 10; i++) {
		const change = prepare(i);
		const frame = mounted.nextFrame();
		change();
		await frame;
		await sleep(2);
	}

	const times: number[] = [];
	const changes: number[] = [];
	let cpu = 0;
	let allocated = 0;
	const bytes0 = mounted.terminal.bytes;
	await profiled(name, async () => {
		for (let i = 0; i < frames; i++) {
			const change = prepare(i + 10);
			const frame = mounted.nextFrame();
			const heap0 = allocatedBytes();
			const cpu0 = process.cpuUsage();
			const t0 = performance.now();
			change();
			changes.push(performance.now() - t0);
			await frame;
			times.push(performance.now() - t0);
			const used = process.cpuUsage(cpu0);
			cpu += (used.user + used.system) / 1000;
			allocated += allocatedBytes() - heap0;
			// Past Ink's throttle window, so the next change renders at once.
			await sleep(3);
		}
	});

	return {
		name,
		frames,
		p50: percentile(times, 50)!,
		p99: percentile(times, 99)!,
		changeP50: percentile(changes, 50)!,
		cpuMs: cpu / frames,
		kibPerFrame: allocated / 1024 / frames,
		bytesPerFrame: (mounted.terminal.bytes - bytes0) / frames,
	};
}

/**
 * Changes that show nothing (an object below the list's window whose cells stay the same): CPU per change, and how
 * many frames Ink wrote for them. Each change is given time for a frame (past the store's batch and Ink's throttle).
 */
async function measureOffScreen(name: string, mounted: Mounted, changes: number, prepare: (i: number) => () => void): Promise<FrameFigures> {
	for (let i = 0; i < 10; i++) {
		prepare(i)();
		await sleep(3);
	}

	const times: number[] = [];
	let cpu = 0;
	let allocated = 0;
	const bytes0 = mounted.terminal.bytes;
	const frames0 = mounted.written();
	await profiled(name, async () => {
		for (let i = 0; i < changes; i++) {
			const change = prepare(i + 10);
			const heap0 = allocatedBytes();
			const cpu0 = process.cpuUsage();
			const t0 = performance.now();
			change();
			times.push(performance.now() - t0);
			// What the change sets off (the store's notification, the App's check, a render if any) runs in here.
			await new Promise<void>(resolve => {
				setImmediate(resolve);
			});
			const used = process.cpuUsage(cpu0);
			cpu += (used.user + used.system) / 1000;
			allocated += allocatedBytes() - heap0;
			await sleep(3);
		}
	});

	return {
		name,
		frames: changes,
		p50: percentile(times, 50)!,
		p99: percentile(times, 99)!,
		changeP50: percentile(times, 50)!,
		cpuMs: cpu / changes,
		kibPerFrame: allocated / 1024 / changes,
		bytesPerFrame: (mounted.terminal.bytes - bytes0) / changes,
		framesPerChange: (mounted.written() - frames0) / changes,
	};
}

const kinds: Record<string, ResourceKind> = {Instance: 'Instance', ActionSet: 'ActionSet', Blueprint: 'Blueprint', OperatorVersion: 'OperatorVersion'};

/** The list with `count` objects: probe updates, then clock ticks. */
export async function listFrames(count: number, frames: number): Promise<FrameFigures[]> {
	let workload: ReturnType<typeof loadWorkload> | undefined;
	const raw = new Map<string, {kind: ResourceKind; object: KubeObject}>();
	// While a change is prepared, what the workload writes is held here and applied in the timed part.
	let held: Array<{kind: ResourceKind; object: KubeObject}> | undefined;
	const mounted = mount([], store => {
		workload = loadWorkload(
			{
				put(def: ResourceDef, object: KubeObject) {
					const full = {...object, apiVersion: `${def.group}/${def.version}`, kind: def.kind, metadata: {creationTimestamp: '2026-11-30T11:00:00Z', ...object.metadata}};
					raw.set(object.metadata?.name ?? '', {kind: kinds[def.kind]!, object: full});
					if (held) {
						held.push({kind: kinds[def.kind]!, object: full});
					} else {
						store.apply({type: 'upsert', resource: kinds[def.kind]!, object: full});
					}

					return object as never;
				},
			},
			count,
		);
	});
	const prepared = (write: () => void) => {
		held = [];
		write();
		const writes = held;
		held = undefined;
		return () => {
			for (const {kind, object} of writes) {
				mounted.store.apply({type: 'upsert', resource: kind, object});
			}
		};
	};
	// Finished ActionSets in the second half of the list, far below the window: each update changes the object (a
	// new resourceVersion and transition time), not its cells.
	const at = (i: number) => new Date(Date.UTC(2026, 10, 30, 11, 0, i % 60)).toISOString().replace(/\.\d+Z$/, 'Z');
	const below = [...raw.entries()].filter(([name, r]) => name.startsWith('b-') && r.kind === 'ActionSet').slice(Math.floor(count / 2)).map(([, r]) => r.object);
	try {
		await sleep(50);
		// The probes whose rows are on screen (the first running ones open their trees and push the rest down): an
		// update to one of them is drawn.
		const drawn = mounted.terminal.text;
		mounted.terminal.keep = false;
		const probes = workload!.probes.filter(probe => new RegExp(`\\b${probe}\\b`).test(drawn));
		if (probes.length === 0) {
			throw new Error('no probe on screen');
		}

		process.stderr.write(`bench:   ${probes.length} probes on screen: ${probes.join(' ')}\n`);

		const update = await measure(`list · ${count} objects · one update per frame (on screen)`, mounted, frames, () => prepared(() => workload!.update(probes)));
		// Ten changed rows in one frame: against the one-update phase, what each changed row adds to a frame (at 100
		// updates/s to rows on screen a 33 ms frame carries about three).
		const tenUpdates = await measure(`list · ${count} objects · ten updates per frame (on screen)`, mounted, frames, () => prepared(() => {
			for (let k = 0; k < 10; k++) {
				workload!.update(probes);
			}
		}));
		const tick = await measure(`list · ${count} objects · 1 Hz clock tick`, mounted, frames, () => () => {
			mounted.clock.advance(1000);
		});
		const offScreen = await measureOffScreen(`list · ${count} objects · update off screen`, mounted, frames, i => {
			const object = below[i % below.length]!;
			const status = object['status'] as {progress?: Record<string, unknown>} | undefined;
			const next = {...object, metadata: {...object.metadata, resourceVersion: String(1000 + i)}, status: {...status, progress: {...status?.progress, lastTransitionTime: at(i)}}};
			return () => {
				mounted.store.apply({type: 'upsert', resource: 'ActionSet', object: next});
			};
		});
		return [update, tenUpdates, tick, offScreen];
	} finally {
		mounted.unmount();
	}
}

/** A KUDO OperatorVersion with one plan of `steps` serial steps, and an Instance running it at step `running`. */
function bigInstance(steps: number, running: number): {operatorVersion: KubeObject; instance: KubeObject} {
	const shape = {steps, namespace: 'bench'};
	return {
		operatorVersion: bigPlanOperatorVersion(shape),
		instance: bigPlanInstance(running, {...shape, planUid: 'deploy-uid', lastUpdatedTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z')}),
	};
}

/** The tree of one Instance with a `steps`-step plan: the running step moves on each frame, then clock ticks. */
export async function treeFrames(steps: number, frames: number): Promise<FrameFigures[]> {
	const first = bigInstance(steps, Math.floor(steps / 2));
	const mounted = mount(['Instance/bench/big'], store => {
		store.apply({type: 'upsert', resource: 'OperatorVersion', object: first.operatorVersion});
		store.apply({type: 'upsert', resource: 'Instance', object: first.instance});
	});
	try {
		await sleep(50);
		const update = await measure(`tree · ${steps} steps · running step moves on`, mounted, frames, i => {
			// From the next step on: the first change must show (the mounted state is step steps / 2).
			const {instance} = bigInstance(steps, (Math.floor(steps / 2) + i + 1) % steps);
			return () => {
				mounted.store.apply({type: 'upsert', resource: 'Instance', object: instance});
			};
		});
		const tick = await measure(`tree · ${steps} steps · 1 Hz clock tick`, mounted, frames, () => () => {
			mounted.clock.advance(1000);
		});
		return [update, tick];
	} finally {
		mounted.unmount();
	}
}
