import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { submitActionPage } from '../action.server.ts';
import { actionDeps } from '../services.server.ts';
import { actionResultResponse } from '../static-page.server.tsx';

/** `POST /action/submit?…`: the action cards' forms (new password, Change password); origin-checked. */
export const action = async ({ request }: ActionFunctionArgs) =>
  actionResultResponse(await submitActionPage(request, actionDeps()), request);

// Reloading the result page (or Retry) opens the action page again.
export const loader = ({ request }: LoaderFunctionArgs) => redirect(`/action${new URL(request.url).search}`);
