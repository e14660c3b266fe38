import { boolean, companyRef, customFields, dateTime, enumOf, id, ids, nameRef, read, readOnly, recordId, shaped, text, userRef } from './field-table';
import { v3Resource } from './resource-spec';

/**
 * v3 §2.4. `full_name` goes through as `fullName`: the split into first and last name is the core's
 * rule (one place for both surfaces). Addresses are spelled `work_address_1` in v3.
 */
export const personResource = v3Resource({
  root: 'person',
  type: 'Person',
  fragment: 'PersonV3',
  requiredOnCreate: ['lastName'],
  fields: {
    id: recordId(),
    first_name: text('firstName'),
    last_name: text('lastName'),
    full_name: text('fullName'),
    summary: text('summary'),
    position: text('position'),
    website: text('website'),
    phone: text('phone'),
    home_phone: text('homePhone'),
    mobile: text('mobile'),
    fax: text('fax'),
    email: text('email'),
    email2: text('email2'),
    home_email: text('homeEmail'),
    company_id: id('companyId'),
    company_name: text('companyName'),
    // The convenience object is shown whatever the viewer may see of the company itself (v3):
    // built from the id and name, not from Person.company (null for a company the viewer cannot see).
    company: companyRef(),
    user_id: id('ownerId'),
    user: userRef('owner'),
    // v3 §2.4 `type`; DECISIONS (Wording): "the service" stands for Contact.
    type: enumOf('type', { Contact: 'CONTACT', Lead: 'LEAD' }),
    lead_status_id: id('leadStatusId'),
    // DECISIONS (Responses): the nested lead status also carries its colour, as recorded
    // (`{"hex_color": "C73408", "id": 2, "name": "Hot"}`, issue 22 §3).
    lead_status: read('leadStatus', 'plain', '{ id: databaseId name hex_color: hexColor }'),
    lead_source_id: id('leadSourceId'),
    lead_source: nameRef('leadSource'),
    image_thumb_url: text('imageUrl'),
    // v3 shows one avatar URL under both sizes.
    image_mobile_url: read('imageUrl'),
    predefined_contacts_tag_ids: ids('tagIds'),
    predefined_contacts_tags: nameRef('tags'),
    custom_fields: customFields(),
    work_address_1: text('workAddress1'),
    work_address_2: text('workAddress2'),
    work_city: text('workCity'),
    work_state: text('workState'),
    work_country: text('workCountry'),
    work_postal_code: text('workPostalCode'),
    home_address_1: text('homeAddress1'),
    home_address_2: text('homeAddress2'),
    home_city: text('homeCity'),
    home_state: text('homeState'),
    home_country: text('homeCountry'),
    home_postal_code: text('homePostalCode'),
    facebook_url: text('facebookUrl'),
    linked_in_url: text('linkedInUrl'),
    twitter: text('twitter'),
    instant_message: text('instantMessage'),
    created_at: dateTime('createdAt'),
    updated_at: dateTime('updatedAt'),
    possible_notify_user_ids: read('possibleNotifyUserIds'),
    unsubscribed: boolean('unsubscribed'),
    bounced: boolean('bounced'),
    last_emailed_at: dateTime('lastEmailedAt'),
    deal_ids: ids('dealIds'),
    viewed_at: readOnly(dateTime('viewedAt')),
    // Keys the recordings show on people (issue 22; pipelinedeals_api get_a_person.yml, pipeline_api
    // people_index.yml), after the spec's. `deals` and the totals come from the statement that reads
    // deal_ids and count only the deals the viewer may see; totals are money as the core shows it
    // (decimal strings with the currency's places, DECISIONS: Responses; the 2024 service answered "0.0").
    deals: read('dealNames', 'plain', '{ id: databaseId name }'),
    // People are not shared with users here (their visibility is their owner's): always empty, read from nothing that costs.
    shared_user_ids: shaped(
      read('databaseId', () => []),
      { type: 'array', items: { type: 'integer' }, maxItems: 0 },
    ),
    created_by_user_id: read('createdByUserId'),
    total_pipeline: read('totalPipeline'),
    won_deals_total: read('wonDealsTotal'),
  },
  // Flags that the core validates name their v3 parameter (v3 §4.4 create/update parameters).
  errorFields: { todoTemplateId: 'todo_template_id', todoTemplateUserId: 'todo_template_user_id' },
});
