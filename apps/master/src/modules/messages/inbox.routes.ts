import {
  Envelope,
  IdParams,
  Message,
  MessageList,
  MessageQuery,
  MessageReadBody,
  MessageReadResult,
  MessageSendBody,
  MessageSendResult,
  MessageSubscription,
  MessageSubscriptionBody,
  MessageUpdateBody,
  PERMISSIONS,
} from '@rampart/contracts';
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http.ts';
import { caller } from '../../plugins/auth.ts';
import { ok } from '../../plugins/envelope.ts';
import { policy } from '../../plugins/route-policy.ts';
import { ownerOf } from '../tenancy.ts';
import {
  listMessagesFor,
  markMessage,
  markRead,
  readMessage,
  readSubscription,
  removeMessage,
  sendMessage,
  updateSubscription,
} from './inbox.service.ts';

const tags = ['messages'];

/**
 * Spec §7 messages and subscriptions: a user's own inbox and channels (self); an administrator
 * holding admin:sys also lists everyone's (scope=all) and sends.
 */
export async function inboxRoutes(app: App, { db, secrets, notifier }: AppContext) {
  app.get(
    '/v1/messages',
    {
      config: { policy: policy.tenant(PERMISSIONS.adminSys) },
      schema: {
        tags,
        summary:
          "The caller's messages, newest first, by type and read state; scope=all (admin:sys) queries everyone's by user_id, type and time. `unread` is the caller's unread count",
        querystring: MessageQuery,
        response: { 200: Envelope(MessageList) },
      },
    },
    async (request) => ok(await listMessagesFor(db, ownerOf(request), request.query)),
  );

  app.post(
    '/v1/messages',
    {
      config: { policy: policy.admin(PERMISSIONS.adminSys) },
      schema: {
        tags,
        summary: 'Admin (admin:sys): send a message to one user (through their subscription), a user group or everyone',
        body: MessageSendBody,
        response: { 200: Envelope(MessageSendResult) },
      },
    },
    async (request) => ok(await sendMessage(db, notifier, request.body)),
  );

  app.post(
    '/v1/messages/read',
    {
      config: { policy: policy.self },
      schema: {
        tags,
        summary: "Mark the caller's messages read: some by id, or all",
        body: MessageReadBody,
        response: { 200: Envelope(MessageReadResult) },
      },
    },
    async (request) => ok(await markRead(db, caller(request).user.id, request.body)),
  );

  app.get(
    '/v1/messages/sub',
    {
      config: { policy: policy.self },
      schema: {
        tags,
        summary: "The caller's channels (in_app, email, sms, webhook) per message type, and their webhook",
        response: { 200: Envelope(MessageSubscription) },
      },
    },
    async (request) => ok(await readSubscription(db, caller(request).user)),
  );

  app.put(
    '/v1/messages/sub',
    {
      config: { policy: policy.self },
      schema: {
        tags,
        summary:
          'Save channels per type and the webhook URL (https, public address); generate_secret answers a new signing secret once; send_test posts a signed test',
        body: MessageSubscriptionBody,
        response: { 200: Envelope(MessageSubscription) },
      },
    },
    async (request) => ok(await updateSubscription(db, secrets, notifier, caller(request).user, request.body)),
  );

  app.get(
    '/v1/messages/:id',
    {
      config: { policy: policy.self },
      schema: { tags, summary: "One of the caller's messages", params: IdParams, response: { 200: Envelope(Message) } },
    },
    async (request) => ok(await readMessage(db, caller(request).user.id, request.params.id)),
  );

  app.put(
    '/v1/messages/:id',
    {
      config: { policy: policy.self },
      schema: {
        tags,
        summary: "Mark one of the caller's messages read or unread",
        params: IdParams,
        body: MessageUpdateBody,
        response: { 200: Envelope(Message) },
      },
    },
    async (request) => ok(await markMessage(db, caller(request).user.id, request.params.id, request.body.read)),
  );

  app.delete(
    '/v1/messages/:id',
    {
      config: { policy: policy.self },
      schema: {
        tags,
        summary: "Delete one of the caller's messages",
        params: IdParams,
        response: { 200: Envelope(Type.Null()) },
      },
    },
    async (request) => ok(await removeMessage(db, caller(request).user.id, request.params.id)),
  );
}
