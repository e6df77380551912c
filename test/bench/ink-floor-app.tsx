/**
 * The floor under planwatch's frames: the least an Ink + React app does to show a change on a screen of rows. 40
 * memoized rows of ~150 columns (an icon, a name, a percentage); updates gathered and published at most once per
 * 33 ms frame, as planwatch's framed snapshots do (state/framed-snapshots.ts), each update to the next row's
 * percentage, so every update changes a row on screen. Ink as planwatch starts it (incremental rendering, patched).
 * No network, no JSON, no store. Started by ink-floor.ts in a pseudo-terminal: `ink-floor-app.mjs OUT RATES SECONDS`;
 * writes the CPU of each window (process.cpuUsage: every thread) to OUT as JSON.
 */
import {writeFileSync} from 'node:fs';
import {Box, Text, render} from 'ink';
import {memo, useEffect, useState} from 'react';

const [out = '', ratesArg = '0,10,100', secondsArg = '10'] = process.argv.slice(2);
const rates = ratesArg.split(',').map(Number);
const seconds = Number(secondsArg);
const rows = 40;
const frameMs = 33;
const setters: Array<(update: (value: number) => number) => void> = [];

const Row = memo(function Row({index}: {readonly index: number}) {
	const [value, setValue] = useState(0);
	useEffect(() => {
		setters[index] = setValue;
	}, [index]);
	return (
		<Box>
			<Text color="green">● </Text>
			<Text>{`a-probe-${String(index).padStart(2, '0')}  Running  ${'·'.repeat(110)} `}</Text>
			<Text bold>{`${value}%`}</Text>
		</Box>
	);
});

function Screen() {
	return (
		<Box flexDirection="column">
			{Array.from({length: rows}, (_, i) => <Row key={i} index={i}/>)}
		</Box>
	);
}

const sleep = async (ms: number) => new Promise(resolve => {
	setTimeout(resolve, ms);
});

/** `rate` updates a second for `seconds`, published once per frame; resolves with the CPU ms a second it cost. */
async function window(rate: number): Promise<number> {
	const pending = new Set<number>();
	let slot: NodeJS.Timeout | undefined;
	let publishedAt = Number.NEGATIVE_INFINITY;
	const publish = () => {
		slot = undefined;
		publishedAt = performance.now();
		for (const index of pending) {
			setters[index]?.(value => (value % 99) + 1);
		}

		pending.clear();
	};

	let next = 0;
	const cpu0 = process.cpuUsage();
	const t0 = performance.now();
	const timer = rate > 0
		? setInterval(() => {
			pending.add(next++ % rows);
			slot ??= setTimeout(publish, Math.max(0, publishedAt + frameMs - performance.now()));
		}, 1000 / rate)
		: undefined;
	await sleep(seconds * 1000);
	clearInterval(timer);
	const used = process.cpuUsage(cpu0);
	return (used.user + used.system) / 1000 / ((performance.now() - t0) / 1000);
}

const app = render(<Screen/>, {incrementalRendering: true, maxFps: 60, exitOnCtrlC: false, interactive: true});
await sleep(2000);
const figures: Array<{rate: number; cpuMsPerSecond: number}> = [];
for (const rate of rates) {
	figures.push({rate, cpuMsPerSecond: await window(rate)});
	await sleep(500);
}

app.unmount();
writeFileSync(out, JSON.stringify(figures));
process.exit(0);
