import type { z } from 'zod';
import type { ProductsQuery, ProductsResponse } from '../catalog/routes.ts';
import type { ArchiveResponse, archivedListResponse, BulkBody, RecordGetBody, UnarchiveResponse } from '../records/schemas.ts';
import type { DocumentSchema } from '../api-reference/routes.ts';
import type { DashboardBody, DashboardResponse } from '../dashboard/routes.ts';
import type {
  ListBody as TemplateListBody,
  ListResponse as TemplateListResponse,
  PreviewBody as TemplatePreviewBody,
  PreviewResponse as TemplatePreviewResponse,
  RevertBody as TemplateRevertBody,
  TemplateResponse,
  TestSendBody as TemplateTestSendBody,
  TestSendResponse as TemplateTestSendResponse,
  UpdateBody as TemplateUpdateBody,
  VersionsBody as TemplateVersionsBody,
  VersionsResponse as TemplateVersionsResponse,
} from '../messaging/templates/schemas.ts';
import type { HealthResponse, ProbeResponse } from '../health/routes.ts';
import type { ErrorSchema } from '../http/schemas.ts';
import type { KeywordLogsQuery, KeywordLogsResponse } from '../keyword-log/routes.ts';
import type {
  ListBody as MessageListBody,
  ListResponse as MessageListResponse,
  RetryBody as MessageRetryBody,
  RetryResponse as MessageRetryResponse,
} from '../messaging/log/schemas.ts';
import type {
  EventAnswer as EmailEventAnswer,
  LiftBody as SuppressionLiftBody,
  LiftResponse as SuppressionLiftResponse,
  ProviderEventBody as EmailEventBody,
  SuppressionListBody,
  SuppressionListResponse,
} from '../messaging/reputation/schemas.ts';
import type { DeleteBody as ReservationDeleteBody, DeleteResponse as ReservationDeleteResponse } from '../reservations/admin-routes.ts';
import type {
  AdminListResponse as PreorderListResponse,
  DeleteResponse as PreorderDeleteResponse,
  EmptyBody as PreorderListBody,
  DeleteBody as PreorderDeleteBody,
  PublicListResponse as PublicPreorderResponse,
  PublicQuery as PreorderQuery,
  UpsertBody as PreorderUpsertBody,
  UpsertResponse as PreorderUpsertResponse,
} from '../preorders/schemas.ts';
import type {
  AddressBody as PersonalDataBody,
  EraseResponse as PersonalDataEraseResponse,
  ExportResponse as PersonalDataExportResponse,
} from '../personal-data/schemas.ts';
import type { ReservationBody, ReservationResponse } from '../reservations/public-routes.ts';
import type {
  ArchivedListBody as ArchivedReservationListBody,
  ArchivedReservationSchema,
  DetailResponse as ReservationDetailResponse,
  ListBody as ReservationListBody,
  ListResponse as ReservationListResponse,
  BulkStatusBody as ReservationBulkStatusBody,
  BulkStatusResponse as ReservationBulkStatusResponse,
  StatusBody as ReservationStatusBody,
  StatusResponse as ReservationStatusResponse,
} from '../reservations/schemas.ts';
import type { IndexFileSchema, SearchQuery, SearchResponseSchema, SuggestQuery, SuggestResponse } from '../search/routes.ts';
import type { GetBody as ShopGetBody, ShopResponse, UpdateBody as ShopUpdateBody } from '../shop/schemas.ts';
import type {
  CreateBody as StaffCreateBody,
  EmptyBody as StaffEmptyBody,
  EndResponse as StaffDoneResponse,
  ListResponse as StaffListResponse,
  PasswordBody as StaffPasswordBody,
  SessionResponse,
  SignInBody,
  StaffResponse,
  UpdateBody as StaffUpdateBody,
} from '../staff/schemas.ts';
import type { SendBody, SendResponse } from '../subscriptions/admin-routes.ts';
import type { SignupBody, SignupResponse } from '../subscriptions/public-routes.ts';
import type {
  ArchivedListBody as ArchivedSubscriptionListBody,
  ArchivedSubscriptionSchema,
  DetailResponse as SubscriptionDetailResponse,
  ListBody as SubscriptionListBody,
  ListResponse as SubscriptionListResponse,
  BulkStatusBody as SubscriptionBulkStatusBody,
  BulkStatusResponse as SubscriptionBulkStatusResponse,
  StatusBody as SubscriptionStatusBody,
  StatusResponse as SubscriptionStatusResponse,
} from '../subscriptions/schemas.ts';

// The API as types, taken from the very zod schemas the routes validate with and document: what a
// request may send is a schema's input side, what a success answers is its output side. Imports
// here are type-only, so a browser loading the client loads neither zod nor the server's code.
// The built package (scripts/build-packages.ts) declares this module from the OpenAPI document
// instead, generated from the same schemas, so its types name no server module.

type In<S extends z.ZodType> = z.input<S>;
type Out<S extends z.ZodType> = z.output<S>;

/** What an endpoint takes (its query for GET, its JSON body for POST) and its success answer. */
interface Endpoint<Input, Output> {
  input: Input;
  output: Output;
}

export interface Endpoints {
  '/healthz': Endpoint<undefined, Out<typeof HealthResponse>>;
  '/livez': Endpoint<undefined, Out<typeof ProbeResponse>>;
  '/readyz': Endpoint<undefined, Out<typeof ProbeResponse>>;
  '/openapi.json': Endpoint<undefined, Out<typeof DocumentSchema>>;
  '/api/products': Endpoint<In<typeof ProductsQuery>, Out<typeof ProductsResponse>>;
  '/api/search': Endpoint<In<typeof SearchQuery>, Out<typeof SearchResponseSchema>>;
  '/api/search-index': Endpoint<undefined, Out<typeof IndexFileSchema>>;
  '/api/search/suggest': Endpoint<In<typeof SuggestQuery>, Out<typeof SuggestResponse>>;
  '/api/keyword-logs': Endpoint<In<typeof KeywordLogsQuery>, Out<typeof KeywordLogsResponse>>;
  '/api/reservation': Endpoint<In<typeof ReservationBody>, Out<typeof ReservationResponse>>;
  '/api/admin-reservations-list': Endpoint<In<typeof ReservationListBody>, Out<typeof ReservationListResponse>>;
  '/api/admin-reservations-status': Endpoint<In<typeof ReservationStatusBody>, Out<typeof ReservationStatusResponse>>;
  '/api/admin/reservations/bulk-status': Endpoint<In<typeof ReservationBulkStatusBody>, Out<typeof ReservationBulkStatusResponse>>;
  '/api/admin-reservations-delete': Endpoint<In<typeof ReservationDeleteBody>, Out<typeof ReservationDeleteResponse>>;
  '/api/admin/reservations/get': Endpoint<In<typeof RecordGetBody>, Out<typeof ReservationDetailResponse>>;
  '/api/admin/reservations/archive': Endpoint<BulkItems, Out<typeof ArchiveResponse>>;
  '/api/admin/reservations/unarchive': Endpoint<BulkItems, Out<typeof UnarchiveResponse>>;
  '/api/admin/reservations/archives/list': Endpoint<
    In<typeof ArchivedReservationListBody>,
    Out<ReturnType<typeof archivedListResponse<'reservations', typeof ArchivedReservationSchema>>>
  >;
  '/api/notify': Endpoint<In<typeof SignupBody>, Out<typeof SignupResponse>>;
  '/api/admin-notify-list': Endpoint<In<typeof SubscriptionListBody>, Out<typeof SubscriptionListResponse>>;
  '/api/admin-notify-status': Endpoint<In<typeof SubscriptionStatusBody>, Out<typeof SubscriptionStatusResponse>>;
  '/api/admin/notify/bulk-status': Endpoint<In<typeof SubscriptionBulkStatusBody>, Out<typeof SubscriptionBulkStatusResponse>>;
  '/api/admin/notify/send': Endpoint<In<typeof SendBody>, Out<typeof SendResponse>>;
  '/api/admin/notify/get': Endpoint<In<typeof RecordGetBody>, Out<typeof SubscriptionDetailResponse>>;
  '/api/admin/notify/archive': Endpoint<BulkItems, Out<typeof ArchiveResponse>>;
  '/api/admin/notify/unarchive': Endpoint<BulkItems, Out<typeof UnarchiveResponse>>;
  '/api/admin/notify/archives/list': Endpoint<
    In<typeof ArchivedSubscriptionListBody>,
    Out<ReturnType<typeof archivedListResponse<'subscriptions', typeof ArchivedSubscriptionSchema>>>
  >;
  '/api/admin-dashboard-stats': Endpoint<In<typeof DashboardBody>, Out<typeof DashboardResponse>>;
  '/api/preorders': Endpoint<In<typeof PreorderQuery>, Out<typeof PublicPreorderResponse>>;
  '/api/admin/preorders/list': Endpoint<In<typeof PreorderListBody>, Out<typeof PreorderListResponse>>;
  '/api/admin/preorders/upsert': Endpoint<In<typeof PreorderUpsertBody>, Out<typeof PreorderUpsertResponse>>;
  '/api/admin/preorders/delete': Endpoint<In<typeof PreorderDeleteBody>, Out<typeof PreorderDeleteResponse>>;
  '/api/admin/email-templates/list': Endpoint<In<typeof TemplateListBody>, Out<typeof TemplateListResponse>>;
  '/api/admin/email-templates/update': Endpoint<In<typeof TemplateUpdateBody>, Out<typeof TemplateResponse>>;
  '/api/admin/email-templates/preview': Endpoint<In<typeof TemplatePreviewBody>, Out<typeof TemplatePreviewResponse>>;
  '/api/admin/email-templates/versions': Endpoint<In<typeof TemplateVersionsBody>, Out<typeof TemplateVersionsResponse>>;
  '/api/admin/email-templates/revert': Endpoint<In<typeof TemplateRevertBody>, Out<typeof TemplateResponse>>;
  '/api/admin/email-templates/test-send': Endpoint<In<typeof TemplateTestSendBody>, Out<typeof TemplateTestSendResponse>>;
  '/api/admin/messages/list': Endpoint<In<typeof MessageListBody>, Out<typeof MessageListResponse>>;
  '/api/admin/messages/retry': Endpoint<In<typeof MessageRetryBody> & { ids: string[] }, Out<typeof MessageRetryResponse>>;
  '/api/webhooks/email': Endpoint<In<typeof EmailEventBody>, Out<typeof EmailEventAnswer>>;
  '/api/admin/email-suppressions/list': Endpoint<In<typeof SuppressionListBody>, Out<typeof SuppressionListResponse>>;
  '/api/admin/email-suppressions/lift': Endpoint<In<typeof SuppressionLiftBody>, Out<typeof SuppressionLiftResponse>>;
  '/api/admin/personal-data/export': Endpoint<In<typeof PersonalDataBody>, Out<typeof PersonalDataExportResponse>>;
  '/api/admin/personal-data/erase': Endpoint<In<typeof PersonalDataBody>, Out<typeof PersonalDataEraseResponse>>;
  '/api/admin/shop/get': Endpoint<In<typeof ShopGetBody>, Out<typeof ShopResponse>>;
  '/api/admin/shop/update': Endpoint<In<typeof ShopUpdateBody>, Out<typeof ShopResponse>>;
  '/api/admin/session': Endpoint<In<typeof SignInBody>, Out<typeof StaffResponse>>;
  '/api/admin/session/get': Endpoint<In<typeof StaffEmptyBody>, Out<typeof SessionResponse>>;
  '/api/admin/session/end': Endpoint<In<typeof StaffEmptyBody>, Out<typeof StaffDoneResponse>>;
  '/api/admin/staff/list': Endpoint<In<typeof StaffEmptyBody>, Out<typeof StaffListResponse>>;
  '/api/admin/staff/create': Endpoint<In<typeof StaffCreateBody>, Out<typeof StaffResponse>>;
  '/api/admin/staff/update': Endpoint<In<typeof StaffUpdateBody>, Out<typeof StaffResponse>>;
  '/api/admin/staff/password': Endpoint<In<typeof StaffPasswordBody>, Out<typeof StaffDoneResponse>>;
}

/**
 * The bulk body as clients should send it. Its schema takes items of any shape (each is checked on
 * its own and reported in `errors`), so the schema's input type says only `unknown[]`.
 */
type BulkItems = In<typeof BulkBody> & { ids: { id: string; productSlug: string }[] };

export type ErrorBody = Out<typeof ErrorSchema>;
