import {it} from 'vitest';
import {createReplaySource, loadRecording, transitionMarks} from '../source/sources/replay-source.js';
import {ReplayClock} from '../source/state/replay-clock.js';
import {Store} from '../source/state/store.js';
import {SystemClock} from '../source/core/clock.js';

it('debug', async () => {
	const recording = await loadRecording('/tmp/planwatch-seek-BjsyVc/restore.ndjson');
	const marks = transitionMarks(recording);
	console.log('marks', marks.map(m => m - recording.startMs));
	const clock = new ReplayClock(new SystemClock(), recording.startMs, 0.05, true);
	const store = new Store(clock);
	const source = createReplaySource({recording, clock});
	source.start(store.apply);
	clock.setPaused(false);
	await new Promise(r => setTimeout(r, 300));
	for (let i = 0; i < 5; i++) {
		source.controls.jump('next');
		await new Promise(r => setTimeout(r, 100));
	}
	source.controls.togglePause();
	await new Promise(r => setTimeout(r, 100));
	const show = (w: string) => console.log(w, clock.now() - recording.startMs, store.getSnapshot().version, store.getSnapshot().objects.map(o => o.summary.slice(0, 60)));
	show('paused');
	for (let i = 0; i < 3; i++) {
		source.controls.jump('previous');
		show('sync');
		await new Promise(r => setTimeout(r, 100));
		show('after');
	}
});
