/**
 * The why and events panes on a short line: each line's text gives way, cut with the theme's marker (`...` in
 * --ascii, where it used to be clipped unmarked); the why pane's labels and `(y copies)` key hint, and an event's
 * count, never do.
 */
import {afterEach, expect, test} from 'vitest';
import {EventsPane} from '../../source/ui/components/events-pane.js';
import {WhyPane} from '../../source/ui/components/why-pane.js';
import {TicksContext, tickSource} from '../../source/ui/ticks.js';
import {FakeClock} from '../helpers/fake-clock.js';
import {ThemeContext} from '../../source/ui/theme-context.js';
import {createTheme} from '../../source/ui/theme.js';
import {displayWidth} from '../../source/model/display-width.js';
import type {Diagnosis} from '../../source/model/diagnosis.js';
import {cleanupUi, renderUi} from '../helpers/ui.js';

afterEach(cleanupUi);

const diagnosis: Diagnosis = {
	resources: [],
	pods: [],
	cause: 'pod kanister-job-m8wzt (gone): container container failed: exit code 2 (Error)',
	log: {namespace: 'shop', pod: 'kanister-job-m8wzt', container: 'container', previous: false},
	logTail: ['mysqldump: Got error: 2002: "Can\'t connect to local MySQL server through socket \'/var/run/mysqld/mysqld.sock\' (2)"'],
	next: 'kanctl create actionset --action backup --from backup-orders-7q2lx --namespace default',
};

test.each([[false, '…'], [true, '...']])('the why pane at 80 columns, ascii %s: every line fits, each cut marked, the key hint whole', async (ascii, marker) => {
	const theme = createTheme({color: false, ascii});
	const app = renderUi(
		<ThemeContext.Provider value={theme}>
			<WhyPane diagnosis={diagnosis} height={8} width={80} />
		</ThemeContext.Provider>,
		{columns: 80},
	);
	const frame = await app.waitForFrame(f => f.includes('next'), {what: 'the why pane'});
	const lines = frame.split('\n');
	for (const line of lines) {
		expect(displayWidth(line), line).toBeLessThanOrEqual(80);
	}

	// The cause and the next command wrap (why-lines.ts); a log line is cut, with the marker (--ascii clipped it unmarked).
	expect(lines.join(' ')).toMatch(/exit code 2 +\(Error\)/);
	expect(lines.find(l => l.includes('mysqldump'))!.endsWith(marker)).toBe(true);
	expect(lines.at(-1)).toMatch(/--namespace default {2}\(y copies\)$/);
});

test.each([[false, '…', '×'], [true, '...', 'x']])('the events pane at 60 columns, ascii %s: the message cut marked, its count whole', async (ascii, marker, times) => {
	const theme = createTheme({color: false, ascii});
	const clock = new FakeClock(Date.UTC(2026, 10, 30, 11, 0, 0));
	const event = {
		uid: 'e1', namespace: 'default', involvedKind: 'Instance', involvedName: 'kafka', type: 'Warning', reason: 'BackOff',
		message: 'Back-off restarting failed container kafka in pod kafka-0_default(6f1c2a)', time: '2026-11-30T10:59:00Z', count: 3,
	};
	const app = renderUi(
		<ThemeContext.Provider value={theme}>
			<TicksContext.Provider value={tickSource(clock)}>
				<EventsPane title="default/kafka" events={[event]} height={3} width={60} />
			</TicksContext.Provider>
		</ThemeContext.Provider>,
		{columns: 60},
	);
	const frame = await app.waitForFrame(f => f.includes('BackOff'), {what: 'the events pane'});
	const line = frame.split('\n').find(l => l.includes('BackOff'))!;
	expect(displayWidth(line)).toBeLessThanOrEqual(60);
	expect(line.endsWith(`${marker} (${times}3)`), line).toBe(true);
	expect(line).toMatch(/^ {4}1m {2}Warning +BackOff {2}Back-off restarting /);
});
