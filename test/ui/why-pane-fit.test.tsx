/**
 * The why pane on a short line: each line's text gives way, cut with the theme's marker (`...` in --ascii, where it
 * used to be clipped unmarked); its label and the `(y copies)` key hint never do.
 */
import {afterEach, expect, test} from 'vitest';
import {WhyPane} from '../../source/ui/components/why-pane.js';
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
	log: {pod: 'kanister-job-m8wzt', container: 'container', previous: false},
	logTail: ['mysqldump: Got error: 2002: "Can\'t connect to local MySQL server through socket \'/var/run/mysqld/mysqld.sock\' (2)"'],
	next: 'kanctl create actionset --action backup --from backup-orders-7q2lx --namespace default',
};

test.each([[false, '…'], [true, '...']])('80 columns, ascii %s: every line fits, each cut marked, the key hint whole', async (ascii, marker) => {
	const theme = createTheme({color: false, ascii});
	const app = renderUi(
		<ThemeContext.Provider value={theme}>
			<WhyPane diagnosis={diagnosis} height={6} width={80} />
		</ThemeContext.Provider>,
		{columns: 80},
	);
	const frame = await app.waitForFrame(f => f.includes('next'), {what: 'the why pane'});
	const lines = frame.split('\n');
	for (const line of lines) {
		expect(displayWidth(line), line).toBeLessThanOrEqual(80);
	}

	expect(lines.find(l => l.includes('why'))).toBe(`    why  pod kanister-job-m8wzt (gone): container container failed: exit code${ascii ? '...' : ' 2…'}`);
	expect(lines.find(l => l.includes('mysqldump'))!.endsWith(marker)).toBe(true);
	expect(lines.find(l => l.includes('next'))).toMatch(new RegExp(`^ {3}next {2}kanctl create actionset --action backup --from .*${marker === '…' ? '…' : '\\.\\.\\.'} {2}\\(y copies\\)$`));
});
