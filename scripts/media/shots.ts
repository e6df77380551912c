/**
 * The pictures in media/: which demo, at which moments, with which keys. Times are fake-clock ms since the demo
 * started (speed 1), so a shot shows the same frame on every run and every machine.
 */
import {openDemo, type DemoOptions, type Screen} from './capture.js';
import {animatedSvg, dark, light, screenToSvg, type Palette} from './svg.js';

const ENTER = '\r';
const ESC = '\u001B';
const columns = 110;
const rows = 32;

export type Shot = {
	/** File name stem: media/<name>-dark.svg and media/<name>-light.svg. */
	readonly name: string;
	/** What the window title says: the command that shows this. */
	readonly title: string;
	readonly demo: DemoOptions;
	/** In order: move the clock to `at` ms, or type `keys`. */
	readonly script: ReadonlyArray<{readonly at: number} | {readonly keys: readonly string[]}>;
	/** The frame must match this before it is taken (a changed demo fails loudly instead of drawing something else). */
	readonly expect: RegExp;
};

const tour: DemoOptions = {scenario: 'tour', columns, rows};
/** In the tour's list from 13 s on: mysql-instance, retrying, leads the list (what needs attention first): open it. */
const openMysql = [ENTER];

export const shots: readonly Shot[] = [
	{
		name: 'tour-list',
		title: 'planwatch demo',
		demo: tour,
		script: [{at: 14_000}],
		expect: /mysql-instance .*↻ retrying/,
	},
	{
		// The list is a tree: the running backup, the mysql install and the zookeeper install open in place.
		name: 'tree-list',
		title: 'planwatch demo   (running objects open in the list)',
		demo: tour,
		script: [{at: 8000}],
		expect: /▾ ActionSet .*backup-[^]*⤷ ◌ recordBackupCompletion[^]*▾ Instance .*mysql-instance[^]*● deploy +IN_PROGRESS/,
	},
	{
		// KUDO: the init step hits a transient ERROR (a ResourceQuota); KUDO retries it.
		name: 'tree-kudo-retrying',
		title: 'planwatch demo   (mysql-instance opened)',
		demo: tour,
		// The retrying mysql-instance is first in the list: enter opens it.
		script: [{at: 14_000}, {keys: openMysql}],
		expect: /↻ init +ERROR .*retrying/,
	},
	{
		// Kanister: the backup's phases are done and its deferPhase runs.
		name: 'tree-kanister-defer',
		title: 'planwatch demo   (backup ActionSet opened)',
		demo: tour,
		script: [{at: 22_000}, {keys: [ENTER]}],
		expect: /⤷ . recordBackupCompletion/,
	},
	{
		// Kanister: the restore failed, its deferPhase still started the database again; the events pane says so.
		name: 'events-kanister-restore',
		title: 'planwatch demo   (restore ActionSet opened, e for events)',
		demo: tour,
		// The failed restore leads the list: enter opens it.
		script: [{at: 38_000}, {keys: [ENTER, 'e']}],
		expect: /⤷ ✔ StartupApplication[^]*EVENTS default\/restore-[^]*Ended deferPhase/,
	},
	{
		// Why it is stuck: the deploy step's Deployment has a crash-looping pod; its previous log and the next command.
		name: 'why-kudo-crashloop',
		title: 'planwatch demo --scenario why-stuck   (shop-db opened)',
		demo: {scenario: 'why-stuck', columns, rows},
		script: [{at: 23_000}, {keys: ['j', ENTER]}],
		expect: /why +pod shop-db-mysql-[^]*CrashLoopBackOff[^]*next +kubectl logs -n default shop-db-mysql-[^ ]+ -c mysql --previous/,
	},
	{
		// Why it failed: the Kanister phase's pod is gone; the last lines planwatch read of its log stay.
		name: 'why-kanister-failed',
		title: 'planwatch demo --scenario why-stuck   (backup ActionSet opened)',
		demo: {scenario: 'why-stuck', columns, rows},
		script: [{at: 23_000}, {keys: [ENTER]}],
		expect: /why +pod kanister-job-m8wzt \(gone\)[^]*mysqldump: Got error[^]*next +kanctl create actionset/,
	},
	{
		// ETA from past runs: three earlier plays of the same deploy (faster, as fast, slower) are the history.
		name: 'eta-tree',
		title: 'planwatch demo --scenario mysql-deploy   (ETA from past runs)',
		demo: {scenario: 'mysql-deploy', columns, rows, pastRunSpeeds: [1.25, 1, 0.8]},
		// The list: its ETA column, and the running plan, phase and step in the open tree below.
		script: [{at: 14_000}],
		expect: /ELAPSED +ETA[^]*~\d+s left[^]*init .*~\d+s left/,
	},
	{
		name: 'timeout-grace',
		title: 'planwatch demo --scenario mysql-deploy --wait --timeout 20s',
		demo: {scenario: 'mysql-deploy', columns, rows, wait: true, timeoutMs: 20_000},
		script: [{at: 23_000}],
		expect: /⏰ Timeout reached after 20s — press \+ to wait 5m more, q to quit \(exiting with code 3 in 7s\)/,
	},
	{
		// Several clusters in one list: a backup in prod, the restore from it in dr, and a staging cluster that is down.
		name: 'contexts-list',
		title: 'planwatch --context prod --context dr --context staging',
		demo: {
			scenario: 'tour',
			columns,
			rows: 12,
			contexts: [
				{name: 'prod', scenario: 'mysql-backup'},
				{name: 'dr', scenario: 'postgres-restore-failed'},
				{name: 'staging', down: 'cannot reach the cluster at 10.0.3.7:6443: connection refused'},
			],
		},
		script: [{at: 9000}],
		expect: /prod ✔ · dr ✔ · staging ↻ reconnecting[^]*CONTEXT +KIND/,
	},
	{
		// A recorded restore, replayed: ] steps to each next transition, here the one where the restore failed.
		name: 'replay-scrubbing',
		title: 'planwatch replay restore.ndjson   (paused, ] pressed 6 times)',
		demo: {scenario: 'postgres-restore-failed', columns, rows: 16, wait: true, replay: true},
		script: [{keys: [' ', ']', ']', ']', ']', ']', ']']}],
		expect: /REPLAY 11:00:\d\d paused[^]*✖ RestoreFromObjectStore/,
	},
];

/** The open tree list: the running backup and the mysql install open in place down to a running step. */
export const firstFrame = /▾ ActionSet .*backup-[^]*▾ Instance .*mysql-instance[^]*● deploy +IN_PROGRESS/;

/**
 * The tour as it plays: the list, mysql-instance's tree through its ERROR and retry, back to the list at the end.
 * The first frame is what a viewer that does not animate shows: the list with the running objects open in place
 * (8 s in), not the queued plans of the first second.
 */
export const animation: {
	readonly name: string;
	readonly title: string;
	readonly demo: DemoOptions;
	/** `frame`: take a frame once the screen matches. */
	readonly script: ReadonlyArray<{readonly at: number} | {readonly keys: readonly string[]} | {readonly frame: RegExp}>;
	readonly frameMs: number;
} = {
	name: 'tour-animated',
	title: 'planwatch demo',
	demo: tour,
	script: [
		{at: 8000},
		{frame: firstFrame},
		{at: 13_000},
		{frame: /↻ retrying/},
		{keys: openMysql},
		{frame: /↻ init +ERROR/},
		{at: 21_000},
		{frame: /init +IN_PROGRESS/},
		{at: 26_000},
		{frame: /cleanup +IN_PROGRESS/},
		{at: 30_000},
		{frame: /✔ deploy completed/},
		{keys: [ESC]},
		{frame: /KIND +NAMESPACE/},
		{at: 40_000},
		{frame: /✖ failed/},
	],
	frameMs: 1800,
};

export async function captureShot(shot: Shot): Promise<Screen> {
	const demo = await openDemo(shot.demo);
	try {
		for (const step of shot.script) {
			await ('at' in step ? demo.advanceTo(step.at) : demo.press(...step.keys));
		}

		return await demo.capture(shot.expect);
	} finally {
		await demo.close();
	}
}

export async function captureAnimation(): Promise<Screen[]> {
	const demo = await openDemo(animation.demo);
	try {
		const screens: Screen[] = [];
		for (const step of animation.script) {
			await ('at' in step
				? demo.advanceTo(step.at)
				: 'keys' in step ? demo.press(...step.keys) : demo.capture(step.frame).then(screen => screens.push(screen)));
		}

		return screens;
	} finally {
		await demo.close();
	}
}

const palettes: readonly Palette[] = [dark, light];

/** Every file of media/, by name, as it should be. */
export async function renderMedia(): Promise<Map<string, string>> {
	const files = new Map<string, string>();
	for (const shot of shots) {
		const screen = await captureShot(shot);
		for (const palette of palettes) {
			files.set(`${shot.name}-${palette.name}.svg`, screenToSvg(screen, palette, {title: shot.title}));
		}
	}

	const frames = await captureAnimation();
	for (const palette of palettes) {
		files.set(
			`${animation.name}-${palette.name}.svg`,
			animatedSvg(frames, palette, {title: animation.title, frameMs: animation.frameMs}),
		);
	}

	return files;
}
