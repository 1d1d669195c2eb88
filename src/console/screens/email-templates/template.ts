import type { Output } from '../../../client/tenpo-client.ts';

/** One kind's template as the service lists it: what the screen, its editor and its versions pass between them. */
export type Template = Output<'/api/admin/email-templates/list'>['templates'][number];
