/** The header bar of a live watch on its own, on a fake clock's ticks: the last event at the clock's start. */
import type {ComponentProps} from 'react';
import {HeaderBar} from '../../source/ui/components/header-bar.js';
import {TicksContext, tickSource} from '../../source/ui/ticks.js';
import type {FakeClock} from './fake-clock.js';
import {renderUi} from './ui.js';

type HeaderProps = ComponentProps<typeof HeaderBar>;

export function renderLiveHeader(
	clock: FakeClock,
	props: Pick<HeaderProps, 'context' | 'scope' | 'width'> & Partial<Pick<HeaderProps, 'missing'>> & {readonly phase: 'waiting' | 'watching'},
) {
	const eventAt = clock.now();
	const {phase, ...rest} = props;
	return renderUi(
		<TicksContext.Provider value={tickSource(clock)}>
			<HeaderBar
				{...rest}
				connection={{status: 'live'}}
				lastEventAt={() => eventAt}
				wait={{phase, startedAt: clock.now(), extendMs: 300_000, extendedMs: 0}}
			/>
		</TicksContext.Provider>,
		{columns: props.width},
	);
}
