/**
 * `<Devices>`: signs the user out everywhere but here, for an account page.
 * @module
 */
import { Actions, Button } from '../parts.tsx';
import { useAttempt } from './attempt.ts';
import { ErrorNote } from './parts.tsx';
import { type AccountSectionProps, fieldErrors, Section, type SectionBody } from './Section.tsx';
import { devicesText } from './text.ts';

/** Props of {@link Devices}. */
export interface DevicesProps extends AccountSectionProps {
  /** Called once the other sessions have ended. */
  onSignedOutOthers?: () => void;
}

function SignOutOthers(props: SectionBody & { onDone: DevicesProps['onSignedOutOthers'] }) {
  const attempt = useAttempt();
  const run = () =>
    attempt.run(async () => {
      await props.ops.signOutOtherSessions();
      props.onDone?.();
      props.done(devicesText.done);
      return null;
    });
  return (
    <div ref={attempt.scope}>
      <ErrorNote message={fieldErrors(attempt.error, {}).card} attempt={attempt} />
      <Actions>
        <Button type="button" secondary disabled={attempt.pending} onClick={() => void run()}>
          {devicesText.signOutOthers}
        </Button>
      </Actions>
    </div>
  );
}

/**
 * "Sign out of all other devices": ends the user's other sessions, this one staying signed in. Renders only
 * when `provider.capabilities.account` lists `signOutOtherSessions`.
 * @example
 * <Devices provider={provider} reauthenticate={() => openSignInDialog()} />
 */
export function Devices(props: DevicesProps) {
  return (
    <Section {...props} needs={['signOutOtherSessions']} title={devicesText.title} intro={devicesText.intro}>
      {(body) => <SignOutOthers {...body} onDone={props.onSignedOutOthers} />}
    </Section>
  );
}
