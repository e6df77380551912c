/** A recording of a demo scenario made the way --record makes one: every source event as the store got it. */
import {encodeEntry, encodeHeader, parseRecording, type Recording} from '../../source/recording/recording.js';
import {findScenario} from '../../source/scenarios/catalog.js';
import {scenarioDuration} from '../../source/scenarios/scenario.js';
import {createDemoSource} from '../../source/sources/demo-source.js';
import {FakeClock} from './fake-clock.js';
import {Store, type StoreSnapshot} from '../../source/state/store.js';

export function recordScenario(name: string, waitFor: readonly string[] = []): {live: StoreSnapshot; recording: Recording; text: string} {
	const scenario = findScenario(name);
	if (!scenario) {
		throw new Error(`no scenario ${name}`);
	}

	const clock = new FakeClock();
	const store = new Store(clock);
	let text = encodeHeader({version: 't', source: 'demo', context: 'demo', namespace: 'default', targets: [], waitFor, start: new Date(clock.now()).toISOString()});
	const source = createDemoSource({scenarios: [scenario], clock});
	source.start(event => {
		text += encodeEntry(clock.now(), event);
		store.apply(event);
	});
	clock.advance(scenarioDuration(scenario) + 2000);
	text += encodeEntry(clock.now(), {type: 'end'});
	source.stop();
	return {live: store.getSnapshot(), recording: parseRecording(text, 'rec'), text};
}
