import { customFields, dateTime, id, read, recordId, text, userRef } from './field-table';
import { v3Resource } from './resource-spec';

/** v3 §2.6. Note the spec's spelling: `address_1` but `phone1` and `phone1_desc`. */
export const companyResource = v3Resource({
  root: 'company',
  type: 'Company',
  fragment: 'CompanyV3',
  requiredOnCreate: ['name'],
  fields: {
    id: recordId(),
    name: text('name'),
    description: text('description'),
    email: text('email'),
    web: text('website'),
    fax: text('fax'),
    address_1: text('address1'),
    address_2: text('address2'),
    city: text('city'),
    state: text('state'),
    postal_code: text('postalCode'),
    country: text('country'),
    phone1: text('phone1'),
    phone2: text('phone2'),
    phone3: text('phone3'),
    phone4: text('phone4'),
    phone1_desc: text('phone1Desc'),
    phone2_desc: text('phone2Desc'),
    phone3_desc: text('phone3Desc'),
    phone4_desc: text('phone4Desc'),
    image_thumb_url: text('imageUrl'),
    // v3 shows one avatar URL under both sizes.
    image_mobile_url: read('imageUrl'),
    custom_fields: customFields(),
    owner_id: id('ownerId'),
    owner: userRef('owner'),
    possible_notify_user_ids: read('possibleNotifyUserIds'),
    import_id: read('importId'),
    created_at: dateTime('createdAt'),
    updated_at: dateTime('updatedAt'),
    // v3 §4.6 `associations=people`: selected by ShowCompany under @include (`{ nodes { ...PersonRefV3 } }`), shown as the list.
    people: {
      from: 'people',
      show: (connection: { nodes: unknown[] }) => connection.nodes,
      optional: true,
      shape: ({ fragment }) => ({
        type: 'array',
        items: fragment('PersonRefV3'),
        description: 'With `associations=people` only: the first 100 people of the company the user may see.',
      }),
    },
  },
});
