import {expect, it} from 'vitest';
import {helpText} from '../../source/cli/help-text.js';
import {scenarioNames} from '../../source/scenarios/catalog.js';

it('--help lists every demo scenario (the text is static so --help stays fast)', () => {
	for (const name of scenarioNames) {
		expect(helpText).toMatch(new RegExp(`[ ,]${name}[ ,(\\n]`));
	}
});

it('--help documents record and replay', () => {
	expect(helpText).toContain('planwatch replay FILE [--speed N] [--from DURATION|TIME]');
	expect(helpText).toMatch(/--record FILE +Cluster or demo: append everything seen to FILE/);
	expect(helpText).toMatch(/space pauses, \[ and \] jump to the previous \/ next change/);
});
