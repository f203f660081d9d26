/** The shared error catalogue (spec §8). The server answers `{ error: { code, message, params } }`; the web app translates by `code`. */
import { DEFAULT_LANGUAGE, type TLanguage } from './constants';

export { DEFAULT_LANGUAGE, LANGUAGES, type TLanguage } from './constants';

type Messages = Record<TLanguage, string>;

export const ERROR_CATALOGUE = {
  INVALID_CREDENTIALS: {
    status: 401,
    'zh-TW': '登入帳號或密碼錯誤',
    ja: 'ログインアカウントまたはパスワードが正しくありません',
    en: 'Incorrect login account or password',
  },
  ACCOUNT_LOCKED: {
    status: 429,
    'zh-TW': '登入失敗次數過多，請於 {{minutes}} 分鐘後再試',
    ja: 'ログインの失敗が多すぎます。{{minutes}} 分後に再試行してください',
    en: 'Too many failed attempts, try again in {{minutes}} minutes',
  },
  INVALID_OTP: {
    status: 401,
    'zh-TW': '驗證碼錯誤或已使用',
    ja: '認証コードが正しくないか、すでに使用されています',
    en: 'The verification code is wrong or already used',
  },
  OTP_NOT_PENDING: {
    status: 401,
    'zh-TW': '請重新登入以取得驗證步驟',
    ja: 'もう一度ログインして認証ステップを開始してください',
    en: 'Log in again to start the verification step',
  },
  UNAUTHENTICATED: {
    status: 401,
    'zh-TW': '請先登入',
    ja: 'ログインしてください',
    en: 'Please log in',
  },
  TOKEN_INVALID: {
    status: 401,
    'zh-TW': '登入憑證無效或已過期，請重新登入',
    ja: 'トークンが無効または期限切れです。もう一度ログインしてください',
    en: 'The session token is invalid or expired, please log in again',
  },
  FORBIDDEN: {
    status: 403,
    'zh-TW': '沒有權限執行此操作',
    ja: 'この操作を行う権限がありません',
    en: 'You are not allowed to do this',
  },
  PERMISSION_DENIED: {
    status: 403,
    'zh-TW': '您的角色沒有「{{permission}}」的權限，請洽公司管理員',
    ja: 'あなたのロールには「{{permission}}」の権限がありません。会社の管理者にお問い合わせください',
    en: 'Your role does not have the "{{permission}}" permission; ask your company administrator',
  },
  LAST_OWNER: {
    status: 409,
    'zh-TW': '公司至少需要一位啟用中的擁有者，且不能停用或降級自己',
    ja: '会社には有効なオーナーが少なくとも1人必要です。自分自身を無効化・降格することはできません',
    en: 'The company needs at least one active owner, and you cannot deactivate or demote yourself',
  },
  CONFIRM_NAME_MISMATCH: {
    status: 400,
    'zh-TW': '輸入的公司名稱不符，未執行清除',
    ja: '入力した会社名が一致しないため、削除は実行されませんでした',
    en: 'The company name you typed does not match; nothing was purged',
  },
  PURGE_RUNNING: {
    status: 409,
    'zh-TW': '資料清除作業正在進行中，請稍後再試',
    ja: 'データ削除を実行中です。しばらくしてから再試行してください',
    en: 'A data purge is already running; try again later',
  },
  NOT_FOUND: {
    status: 404,
    'zh-TW': '查無資料',
    ja: '該当する情報が見つかりません',
    en: 'No information found',
  },
  NO_DATA: {
    status: 404,
    'zh-TW': '尚無任何資料',
    ja: 'まだデータがありません',
    en: 'Not yet any data',
  },
  REQUIRED_FIELD: {
    status: 400,
    'zh-TW': '{{field}} 為必填',
    ja: '{{field}} は必須です',
    en: '{{field}} is required',
  },
  INVALID_FIELD: {
    status: 400,
    'zh-TW': '{{field}} 格式不正確',
    ja: '{{field}} の形式が正しくありません',
    en: '{{field}} is not valid',
  },
  DUPLICATE_VALUE: {
    status: 409,
    'zh-TW': '{{field}} 已存在',
    ja: '{{field}} はすでに存在します',
    en: '{{field}} already exists',
  },
  PASSWORD_TOO_SHORT: {
    status: 400,
    'zh-TW': '密碼長度必須大於 6',
    ja: 'パスワードは 6 文字より長くしてください',
    en: 'Password length must be greater than 6',
  },
  WRONG_PASSWORD: {
    status: 400,
    'zh-TW': '目前密碼不正確',
    ja: '現在のパスワードが正しくありません',
    en: 'The current password is not correct',
  },
  EMAIL_TAKEN: {
    status: 409,
    'zh-TW': '此電子郵件已註冊',
    ja: 'このメールアドレスは登録済みです',
    en: 'This e-mail address is already registered',
  },
  TWO_FACTOR_NOT_SET_UP: {
    status: 409,
    'zh-TW': '請先設定兩步驟驗證',
    ja: '先に二段階認証を設定してください',
    en: 'Set up two-step login first',
  },
  TWO_FACTOR_ALREADY_ENABLED: {
    status: 409,
    'zh-TW': '兩步驟驗證已啟用',
    ja: '二段階認証はすでに有効です',
    en: 'Two-step login is already enabled',
  },
  INVALID_STATUS_TRANSITION: {
    status: 409,
    'zh-TW': '目前狀態不允許此操作',
    ja: '現在の状態ではこの操作はできません',
    en: 'This action is not allowed in the current status',
  },
  IN_USE: {
    status: 409,
    'zh-TW': '資料已被使用，無法刪除',
    ja: 'このデータは使用中のため削除できません',
    en: 'This record is in use and cannot be deleted',
  },
  INVENTORY_SHORTAGE: {
    status: 409,
    'zh-TW': '庫存不足',
    ja: '在庫不足',
    en: 'Inventory shortage',
  },
  ABNORMAL_QUANTITY: {
    status: 400,
    'zh-TW': '數量異常',
    ja: '数量異常',
    en: 'Abnormal quantity',
  },
  PRODUCT_ABNORMAL: {
    status: 400,
    'zh-TW': '商品資料異常',
    ja: '商品情報異常',
    en: 'Product information abnormality',
  },
  CHANNEL_ABNORMAL: {
    status: 400,
    'zh-TW': '通路異常',
    ja: 'チャネル異常',
    en: 'Channel abnormality',
  },
  PLATFORM_ABNORMAL: {
    status: 400,
    'zh-TW': '電商平台異常',
    ja: 'ECプラットフォーム異常',
    en: 'E-commerce platform abnormality',
  },
  PATHWAY_ABNORMAL: {
    status: 400,
    'zh-TW': '物流途徑異常',
    ja: '配送経路異常',
    en: 'Pathway abnormality',
  },
  BODY_TOO_DEEP: {
    status: 400,
    'zh-TW': '送出的資料巢狀層數過深（最多 {{max}} 層）',
    ja: '送信データの入れ子が深すぎます（最大 {{max}} 階層）',
    en: 'The request is nested too deeply (at most {{max}} levels)',
  },
  BODY_TOO_LARGE: {
    status: 413,
    'zh-TW': '上傳的資料過大',
    ja: '送信データが大きすぎます',
    en: 'The request is too large',
  },
  API_KEY_INVALID: {
    status: 401,
    'zh-TW': 'API 金鑰無效或已停用',
    ja: 'API キーが無効か、無効化されています',
    en: 'The API key is invalid or disabled',
  },
  API_SCOPE_DENIED: {
    status: 403,
    'zh-TW': '此 API 金鑰的權限範圍不足（需要「{{scope}}」），請於 API 設定調整',
    ja: 'この API キーの権限範囲では実行できません（「{{scope}}」が必要です）。API 設定で変更してください',
    en: 'This API key\'s scope does not allow this (it needs "{{scope}}"); change it in the API settings',
  },
  API_ALREADY_ENABLED: {
    status: 409,
    'zh-TW': 'API 已啟用；遺失金鑰時請先停用再重新啟用',
    ja: 'API はすでに有効です。キーを紛失した場合は無効化してから再度有効にしてください',
    en: 'The API is already enabled; if the key is lost, disable and enable it again',
  },
  API_SETTING_KIND: {
    status: 409,
    'zh-TW': '此 API 設定的種類不支援這個操作',
    ja: 'この API 設定の種類ではこの操作はできません',
    en: 'This kind of API setting does not support this action',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    'zh-TW': 'Idempotency-Key 已用於另一個不同的請求',
    ja: 'Idempotency-Key は別の内容のリクエストですでに使われています',
    en: 'The Idempotency-Key was already used for a different request',
  },
  DATABASE_UNAVAILABLE: {
    status: 503,
    'zh-TW': '資料庫暫時無法回應，請稍後再試',
    ja: 'データベースが一時的に応答していません。しばらくしてから再試行してください',
    en: 'The database is not answering at the moment, please try again later',
  },
  RATE_LIMITED: {
    status: 429,
    'zh-TW': '請求過於頻繁，請稍後再試',
    ja: 'リクエストが多すぎます。しばらくしてから再試行してください',
    en: 'Too many requests, please try again later',
  },
  COMBINATION_INVALID: {
    status: 400,
    'zh-TW': '組合商品的組件必須是您自己的單一商品，且不可重複',
    ja: 'セット商品の構成品は自社の単品商品で、重複しないものにしてください',
    en: 'Components of a combination product must be your own single products, each listed once',
  },
  DEFAULT_CATEGORY_LOCKED: {
    status: 409,
    'zh-TW': '預設分類 0015「其他」不可刪除或變更代碼',
    ja: 'デフォルト分類 0015「その他」は削除やコード変更ができません',
    en: 'The default category 0015 "Other" cannot be deleted or recoded',
  },
  IMPORT_REJECTED: {
    status: 400,
    'zh-TW': '檔案有 {{count}} 個錯誤，未匯入任何資料',
    ja: 'ファイルに {{count}} 件のエラーがあるため、何も取り込まれていません',
    en: 'The file has {{count}} errors; nothing was imported',
  },
  JOB_CANCELLED: {
    status: 409,
    'zh-TW': '工作已取消',
    ja: 'ジョブは取り消されました',
    en: 'The job was cancelled',
  },
  JOB_ALREADY_QUEUED: {
    status: 409,
    'zh-TW': '相同的工作已在排程中',
    ja: '同じジョブがすでに待機中です',
    en: 'The same job is already queued',
  },
  TARGET_NOT_ALLOWED: {
    status: 400,
    'zh-TW': '{{field}} 不可指向內部網路或本機位址',
    ja: '{{field}} に内部ネットワークやローカルのアドレスは指定できません',
    en: '{{field}} must not point to a private or local address',
  },
  PROVIDER_UNAVAILABLE: {
    status: 502,
    'zh-TW': '外部服務暫時無法回應，系統將自動重試',
    ja: '外部サービスが応答しません。自動的に再試行します',
    en: 'The outside service did not answer; it will be retried automatically',
  },
  PLATFORM_ORDER_CANCELLED: {
    status: 409,
    'zh-TW': '電商平台已取消此訂單（{{platform_status}}），請停止出貨',
    ja: 'EC プラットフォームでこの注文はキャンセルされました（{{platform_status}}）。出荷を止めてください',
    en: 'The e-commerce platform cancelled this order ({{platform_status}}); stop the shipment',
  },
  CARRIER_SIGNATURE_INVALID: {
    status: 401,
    'zh-TW': '物流商通知的檢查碼（CheckMacValue）不正確',
    ja: '配送業者からの通知のチェックコード（CheckMacValue）が正しくありません',
    en: 'The carrier notification check value (CheckMacValue) is not valid',
  },
  CARRIER_REFUSED: {
    status: 502,
    'zh-TW': '物流商拒絕建立託運單：{{message}}',
    ja: '配送業者が送り状の作成を拒否しました：{{message}}',
    en: 'The carrier refused the consignment: {{message}}',
  },
  CARRIER_UNAVAILABLE: {
    status: 503,
    'zh-TW': '物流商暫時無法連線，請稍後再試',
    ja: '配送業者に接続できません。しばらくしてからもう一度お試しください',
    en: 'The carrier cannot be reached now; try again later',
  },
  LABEL_PRINTER_NOT_SET: {
    status: 409,
    'zh-TW': '倉庫「{{warehouse}}」尚未設定標籤機（主機與連接埠），請在倉庫設定中填寫',
    ja: '倉庫「{{warehouse}}」にラベルプリンター（ホストとポート）が設定されていません。倉庫の設定で入力してください',
    en: 'Warehouse "{{warehouse}}" has no label printer (host and port); set it in the warehouse settings',
  },
  LABEL_PRINTER_UNREACHABLE: {
    status: 502,
    'zh-TW': '無法連線到標籤機 {{printer}}，請確認標籤機已開機並連上網路',
    ja: 'ラベルプリンター {{printer}} に接続できません。電源とネットワークを確認してください',
    en: 'The label printer {{printer}} cannot be reached; check that it is on and connected to the network',
  },
  LABEL_PRINTER_HOST_NOT_ALLOWED: {
    status: 400,
    'zh-TW':
      '標籤機主機「{{host}}」不允許：只能使用倉庫內網的位址（10.x、172.16–31.x、192.168.x、169.254.x、IPv6 fc00::/7、fe80::/10）或系統管理員允許的主機',
    ja: 'ラベルプリンターのホスト「{{host}}」は使用できません：倉庫内ネットワークのアドレス（10.x、172.16–31.x、192.168.x、169.254.x、IPv6 fc00::/7・fe80::/10）または運用者が許可したホストのみ指定できます',
    en: 'Label printer host "{{host}}" is not allowed: only an address of the warehouse\'s own network (10.x, 172.16–31.x, 192.168.x, 169.254.x, IPv6 fc00::/7, fe80::/10) or a host the operator allows',
  },
  CARRIER_NOT_CONFIGURED: {
    status: 409,
    'zh-TW': '物流商「{{provider}}」尚未設定 API 帳號（綠界：商店代號、HashKey、HashIV；黑貓：契客代號、授權碼）',
    ja: '配送業者「{{provider}}」の API 認証情報が設定されていません（ECPay：マーチャント ID・HashKey・HashIV、T-cat：契約客コード・認証コード）',
    en: 'The logistics provider "{{provider}}" has no API credentials (ECPay: merchant id, hash key, hash IV; T-cat: customer id and token)',
  },
  CARRIER_NOT_SUPPORTED: {
    status: 409,
    'zh-TW': '尚未支援此物流 API（{{carrier}}），請手動輸入或匯入託運單號',
    ja: 'この配送 API（{{carrier}}）にはまだ対応していません。送り状番号を手入力または取り込んでください',
    en: 'This carrier API ({{carrier}}) is not supported yet; type or import the consignment number',
  },
  CARRIER_NAME_RULE: {
    status: 400,
    'zh-TW': '{{field}}不符合綠界規則：須為 2～5 個中文字或 4～10 個英文字母，不可有數字、空白或符號',
    ja: '{{field}}が ECPay の規則に合いません：漢字 2～5 文字または英字 4～10 文字で、数字・空白・記号は使えません',
    en: '{{field}} breaks the ECPay rule: 2–5 Chinese characters or 4–10 Latin letters, no digits, spaces or symbols',
  },
  CARRIER_PHONE_RULE: {
    status: 400,
    'zh-TW': '{{field}}不符合物流商規則：手機須為 09 開頭共 10 碼，市話只能有數字、#、( ) 與 -',
    ja: '{{field}}が配送業者の規則に合いません：携帯は 09 で始まる 10 桁、固定電話は数字・#・( )・- のみ',
    en: '{{field}} breaks the carrier rule: a mobile is 09 and 8 digits, a landline only digits, #, ( ) and -',
  },
  CARRIER_CELLPHONE_RULE: {
    status: 400,
    'zh-TW': '{{field}}須為手機號碼（09 開頭共 10 碼）：超商取貨與 7-ELEVEN／萊爾富店到店寄件都需要手機',
    ja: '{{field}}は携帯番号（09 で始まる 10 桁）が必要です：コンビニ受取と 7-ELEVEN／Hi-Life の店舗間配送で必須です',
    en: '{{field}} must be a mobile number (09 and 8 digits): store pickup and 7-ELEVEN / Hi-Life store-to-store need one',
  },
  CARRIER_POSTCODE_RULE: {
    status: 400,
    'zh-TW': '{{field}}不符合綠界規則：須為 3～5 位數字（6 碼郵遞區號請填前 3 或 5 碼）',
    ja: '{{field}}が ECPay の規則に合いません：3～5 桁の数字（6 桁の郵便番号は先頭 3 桁か 5 桁）',
    en: '{{field}} breaks the ECPay rule: 3 to 5 digits (of a 6-digit postcode give the first 3 or 5)',
  },
  CARRIER_ADDRESS_RULE: {
    status: 400,
    'zh-TW': '{{field}}不符合綠界規則：須為 6～60 個字',
    ja: '{{field}}が ECPay の規則に合いません：6～60 文字',
    en: '{{field}} breaks the ECPay rule: 6 to 60 characters',
  },
  CARRIER_RECEIVER_MASKED: {
    status: 409,
    'zh-TW':
      '收件人姓名「{{name}}」是電商平台遮罩過的姓名（含 *），物流商不接受：請向平台取得完整姓名後修改訂單的收件人',
    ja: '受取人名「{{name}}」は EC プラットフォームで伏せ字にされた名前（* を含む）で、配送業者は受け付けません：プラットフォームで正しい名前を確認し、注文の受取人を修正してください',
    en: 'The receiver name "{{name}}" is masked by the marketplace (contains *) and the carrier refuses it: get the full name from the marketplace and correct the order’s receiver',
  },
  CARRIER_SENDER_INVALID: {
    status: 409,
    'zh-TW':
      '寄件人資料不符合物流商規則（{{rule}}）：請到「物流商設定」修正「{{provider}}」的寄件人，或在訂單上填寫寄件人',
    ja: '差出人の情報が配送業者の規則に合いません（{{rule}}）：「配送業者設定」で「{{provider}}」の差出人を修正するか、注文に差出人を入力してください',
    en: 'The sender breaks the carrier’s rules ({{rule}}): correct the sender of "{{provider}}" on the logistics providers screen, or give a sender on the order',
  },
  CARRIER_RECEIVER_INVALID: {
    status: 409,
    'zh-TW': '收件人資料不符合物流商規則（{{rule}}）：請修改訂單的收件人資料',
    ja: '受取人の情報が配送業者の規則に合いません（{{rule}}）：注文の受取人を修正してください',
    en: 'The receiver breaks the carrier’s rules ({{rule}}): correct the order’s receiver',
  },
  CVS_STORE_LOCKED: {
    status: 409,
    'zh-TW': '訂單已有託運單號，不能再更改取貨門市',
    ja: '注文にはすでに送り状番号があるため、受取店舗は変更できません',
    en: 'The order already has its consignment number; its pickup store cannot change',
  },
  CVS_MAP_INVALID: {
    status: 400,
    'zh-TW': '門市地圖的回傳不屬於任何開啟中的選店（可能已使用或逾時），請從訂單重新選擇門市',
    ja: '店舗地図の応答が開いている店舗選択に一致しません（使用済みまたは期限切れ）。注文から店舗を選び直してください',
    en: 'The store map answer matches no open store choice (used or expired); choose the store again from the order',
  },
  CVS_NOT_ECPAY: {
    status: 409,
    'zh-TW': '超商取貨需使用綠界物流：請將訂單的物流商設為物流 API「綠界物流」的物流商',
    ja: 'コンビニ受取には ECPay 物流が必要です：注文の配送業者を配送 API「ECPay 物流」の業者にしてください',
    en: 'Store pickup needs ECPay logistics: give the order a logistics provider whose carrier API is ECPay',
  },
  CARRIER_COD_NOT_SUPPORTED: {
    status: 409,
    'zh-TW': '{{carrier}}不提供貨到付款（代收貨款）：請改用超商取貨付款或黑貓宅配代收，或取消訂單的貨到付款',
    ja: '{{carrier}}は代金引換に対応していません：コンビニ受取払いか T-cat の代引きを使うか、注文の代引きを外してください',
    en: '{{carrier}} does not collect cash on delivery: use store pickup with payment or T-cat, or clear the order’s COD',
  },
  CARRIER_AMOUNT_LIMIT: {
    status: 409,
    'zh-TW': '{{field}} {{amount}} 元不符合物流商規則：須為 1～20,000 元的整數',
    ja: '{{field}} {{amount}} 元は配送業者の規則に合いません：1～20,000 元の整数が必要です',
    en: '{{field}} {{amount}} TWD breaks the carrier rule: a whole amount of 1 to 20,000 TWD',
  },
  LABEL_NOT_AVAILABLE: {
    status: 404,
    'zh-TW': '選取的訂單沒有物流商標籤（只有向黑貓或綠界取號的訂單才有標籤）',
    ja: '選択した注文に配送業者のラベルがありません（T-cat または ECPay で番号を取得した注文のみ）',
    en: 'None of the selected orders has a carrier label (only orders numbered by T-cat or ECPay have one)',
  },
  LABELS_AT_ECPAY: {
    status: 409,
    'zh-TW': '選取訂單的標籤在綠界：請用「開啟綠界標籤」列印（{{orders}}）',
    ja: '選択した注文のラベルは ECPay にあります。「ECPay のラベルを開く」で印刷してください（{{orders}}）',
    en: 'The labels of the selected orders are at ECPay: print them with "Open ECPay labels" ({{orders}})',
  },
  CONSIGNMENT_ALREADY_SET: {
    status: 409,
    'zh-TW': '此訂單已有託運單號 {{consignment_number}}',
    ja: 'この注文にはすでに送り状番号 {{consignment_number}} があります',
    en: 'This order already has the consignment number {{consignment_number}}',
  },
  SHOPEE_NOT_CONFIGURED: {
    status: 409,
    'zh-TW': '尚未設定蝦皮合作夥伴帳號（Partner ID／Key），請聯絡系統管理員',
    ja: 'Shopee のパートナー ID／キーが設定されていません。システム管理者に連絡してください',
    en: 'The Shopee partner id and key are not set up; ask the system administrator',
  },
  SHOPEE_ERROR: {
    status: 502,
    'zh-TW': '蝦皮回覆錯誤：{{message}}（{{remote}}）',
    ja: 'Shopee がエラーを返しました：{{message}}（{{remote}}）',
    en: 'Shopee answered with an error: {{message}} ({{remote}})',
  },
  SHOPEE_SIGNATURE_INVALID: {
    status: 401,
    'zh-TW': '蝦皮推播的簽章不正確',
    ja: 'Shopee プッシュの署名が正しくありません',
    en: 'The Shopee push signature is not valid',
  },
  SHOPEE_PUSH_EXPIRED: {
    status: 401,
    'zh-TW': '蝦皮推播的時間戳記（{{field}}）已超過 5 分鐘，視為重送攻擊而拒絕',
    ja: 'Shopee プッシュのタイムスタンプ（{{field}}）が 5 分を超えて古いため、リプレイとして拒否しました',
    en: 'The Shopee push {{field}} is more than 5 minutes old: refused as a replay',
  },
  SHOPEE_REAUTHORIZE: {
    status: 409,
    'zh-TW': '蝦皮已不再接受此商店的授權（刷新權杖已失效），請重新授權商店',
    ja: 'Shopee がこのショップの認可を受け付けなくなりました（リフレッシュトークン失効）。ショップを再認可してください',
    en: "Shopee no longer accepts this shop's authorisation (its refresh token is dead): authorise the shop again",
  },
  SHOPEE_CHANNEL_NOT_SET_UP: {
    status: 409,
    'zh-TW':
      '蝦皮物流通路「{{channel}}」尚未設定寄件方式：請到「蝦皮商店」頁面為此商店選擇「上門收件」或「自行送至門市」',
    ja: 'Shopee 配送チャネル「{{channel}}」の出荷方法が未設定です：「Shopee ショップ」画面でこのショップの「集荷」または「持ち込み」を選んでください',
    en: 'Shopee channel "{{channel}}" is not set up: choose "Pickup" or "Drop-off" for this shop on the Shopee shops page',
  },
  SHOPEE_NO_PICKUP_SLOT: {
    status: 409,
    'zh-TW':
      '蝦皮物流通路「{{channel}}」目前沒有可用的收件地址或時段：請到蝦皮賣家中心設定取件地址，或改為「自行送至門市」',
    ja: 'Shopee 配送チャネル「{{channel}}」に使える集荷先住所・時間帯がありません：Shopee セラーセンターで集荷住所を設定するか「持ち込み」に変更してください',
    en: 'Shopee channel "{{channel}}" has no pickup address or time slot: set a pickup address in Shopee Seller Centre, or switch the shop to "Drop-off"',
  },
  SHOPEE_OPTION_UNKNOWN: {
    status: 400,
    'zh-TW': '{{field}}：蝦皮目前沒有此選項（{{value}}），請重新選擇',
    ja: '{{field}}：Shopee に該当する選択肢がありません（{{value}}）。選び直してください',
    en: '{{field}}: Shopee does not list this choice ({{value}}); choose again',
  },
  SHOPEE_ARRANGING: {
    status: 409,
    'zh-TW': '此訂單正由另一項作業向蝦皮（{{channel}}）安排出貨，請稍後再取號',
    ja: 'この注文は別の処理で Shopee（{{channel}}）に出荷手配中です。しばらくしてから再度取得してください',
    en: 'Another run is arranging this order with Shopee ({{channel}}): get the number again in a moment',
  },
  SHOPEE_TRACKING_PENDING: {
    status: 409,
    'zh-TW': '已向蝦皮（{{channel}}）安排出貨，但蝦皮尚未提供物流單號，請稍後再取號',
    ja: 'Shopee（{{channel}}）への出荷手配は済みましたが、追跡番号がまだ発行されていません。しばらくしてから再度取得してください',
    en: 'Shipment arranged with Shopee ({{channel}}) but Shopee has not given the tracking number yet: get it again in a moment',
  },
  SHOPEE_UNAVAILABLE: {
    status: 503,
    'zh-TW': '蝦皮暫時無法回應，請稍後再試',
    ja: 'Shopee が一時的に応答しません。しばらくしてから再試行してください',
    en: 'Shopee is not answering right now: try again in a moment',
  },
  SHOPEE_SHOP_DISCONNECTED: {
    status: 409,
    'zh-TW': '此蝦皮商店已中斷連結，請重新授權',
    ja: 'この Shopee ショップは接続が解除されています。もう一度認可してください',
    en: 'This Shopee shop is disconnected; authorise it again',
  },
  PROVIDER_REFUSED: {
    status: 502,
    'zh-TW': '外部服務拒絕了請求（HTTP {{status}}）',
    ja: '外部サービスがリクエストを拒否しました（HTTP {{status}}）',
    en: 'The outside service refused the request (HTTP {{status}})',
  },
  IMPORT_FILE_INVALID: {
    status: 400,
    'zh-TW': '無法讀取檔案，請使用下載的範本（.xlsx）',
    ja: 'ファイルを読み取れません。ダウンロードしたテンプレート（.xlsx）を使用してください',
    en: 'The file cannot be read; use the downloaded template (.xlsx)',
  },
  IMPORT_FILE_TOO_COMPLEX: {
    status: 413,
    'zh-TW': '檔案內容過於龐大，讀取所需記憶體超過上限，請分成較小的檔案再匯入',
    ja: 'ファイルの内容が大きすぎて読み取りに必要なメモリが上限を超えました。小さいファイルに分けてインポートしてください',
    en: 'The file needs more memory to read than allowed; split it into smaller files and import them one by one',
  },
  PACK_ITEM_NOT_IN_ORDER: {
    status: 409,
    'zh-TW': '此商品不在這張訂單中',
    ja: 'この商品はこの注文に含まれていません',
    en: 'This item is not in the order',
  },
  PACK_ITEM_COMPLETE: {
    status: 409,
    'zh-TW': '此商品已全數裝箱（數量超出）',
    ja: 'この商品はすでに全数梱包済みです（数量超過）',
    en: 'Every unit of this item is already packed (extra unit)',
  },
  PACK_INCOMPLETE: {
    status: 409,
    'zh-TW': '尚有商品未掃描裝箱',
    ja: 'まだスキャンされていない商品があります',
    en: 'Some items have not been scanned into the parcel yet',
  },
  SERIAL_ALREADY_SHIPPED: {
    status: 409,
    'zh-TW': '此 IMEI／序號已出貨（訂單 {{order_number}}）',
    ja: 'この IMEI／シリアルは出荷済みです（注文 {{order_number}}）',
    en: 'This IMEI/serial has already shipped (order {{order_number}})',
  },
  PACKAGING_SHORTAGE: {
    status: 409,
    'zh-TW': '包材庫存不足',
    ja: '梱包資材の在庫が不足しています',
    en: 'Not enough packaging material in stock',
  },
  INTERNAL_ERROR: {
    status: 500,
    'zh-TW': '系統發生錯誤，請稍後再試',
    ja: 'システムエラーが発生しました。しばらくしてから再試行してください',
    en: 'A system error occurred, please try again later',
  },
  MANIFEST_PARCEL_UNKNOWN: {
    status: 404,
    'zh-TW': '找不到託運單號或訂單編號為 {{code}} 的包裹',
    ja: '送り状番号または注文番号 {{code}} の荷物が見つかりません',
    en: 'No parcel has the tracking or order number {{code}}',
  },
  MANIFEST_PARCEL_NOT_SHIPPED: {
    status: 409,
    'zh-TW': '訂單 {{number}} 尚未出貨，不能交接',
    ja: '注文 {{number}} はまだ出荷されていないため引き渡せません',
    en: 'Order {{number}} has not shipped yet and cannot be handed over',
  },
  MANIFEST_PARCEL_OTHER_CARRIER: {
    status: 409,
    'zh-TW': '訂單 {{number}} 不屬於此倉庫與物流商的交接',
    ja: '注文 {{number}} はこの倉庫・配送業者の引き渡し対象ではありません',
    en: 'Order {{number}} is not for this warehouse and carrier',
  },
  MANIFEST_PARCEL_TAKEN: {
    status: 409,
    'zh-TW': '訂單 {{number}} 已在交接清單 {{manifest}} 中',
    ja: '注文 {{number}} はすでに引き渡し一覧 {{manifest}} にあります',
    en: 'Order {{number}} is already on manifest {{manifest}}',
  },
  MANIFEST_CLOSED: {
    status: 409,
    'zh-TW': '交接清單 {{number}} 已結單',
    ja: '引き渡し一覧 {{number}} はすでに締められています',
    en: 'Manifest {{number}} is already closed',
  },
  MANIFEST_EMPTY: {
    status: 409,
    'zh-TW': '交接清單沒有任何包裹，不能結單',
    ja: '引き渡し一覧に荷物がないため締められません',
    en: 'The manifest has no parcel and cannot be closed',
  },
  CHANNEL_INACTIVE: {
    status: 409,
    'zh-TW': '此放行通道已停用，請先啟用再放行',
    ja: 'このリリースチャネルは無効です。有効にしてからリリースしてください',
    en: 'This release channel is inactive: activate it before releasing',
  },
  WAVE_EMPTY: {
    status: 409,
    'zh-TW': '沒有可放行的訂單：此倉庫（與物流商、區域）沒有已匯出且未在批次中的訂單，或單張訂單已超過件數上限',
    ja: 'リリースできる注文がありません：この倉庫（と配送業者・エリア）に出荷指示済みでバッチ未割当の注文がないか、1 件で数量上限を超えています',
    en: 'Nothing to release: no exported order outside a batch at this warehouse (and carrier, area), or each one alone exceeds the unit limit',
  },
  PICK_WRONG_LOCATION: {
    status: 409,
    'zh-TW': '儲位錯誤：{{location}} 沒有這批次要揀的商品，請到 {{expected}}',
    ja: 'ロケーションが違います：{{location}} にはこのバッチでピッキングする商品がありません。{{expected}} へ行ってください',
    en: 'Wrong location: nothing of this batch is to be picked at {{location}}; go to {{expected}}',
  },
  PICK_WRONG_PRODUCT: {
    status: 409,
    'zh-TW': '商品錯誤：{{barcode}} 不是儲位 {{location}} 要揀的商品',
    ja: '商品が違います：{{barcode}} はロケーション {{location}} でピッキングする商品ではありません',
    en: 'Wrong product: {{barcode}} is not to be picked at location {{location}}',
  },
  PICK_OVER_QUANTITY: {
    status: 409,
    'zh-TW': '數量超過：儲位 {{location}} 的 {{product_number}} 只剩 {{remaining}} 件要揀',
    ja: '数量超過：ロケーション {{location}} の {{product_number}} は残り {{remaining}} 点です',
    en: 'Too many: only {{remaining}} of {{product_number}} are left to pick at location {{location}}',
  },
  PICK_NO_TOTE: {
    status: 409,
    'zh-TW': '集貨揀貨：訂單 {{order_number}} 尚未放入揀貨箱，請先掃描揀貨箱',
    ja: 'クラスターピッキング：注文 {{order_number}} にまだトートがありません。先にトートをスキャンしてください',
    en: 'Cluster pick: order {{order_number}} has no tote yet; scan its tote first',
  },
  PICK_TOTE_IN_USE: {
    status: 409,
    'zh-TW': '揀貨箱 {{tote_code}} 正用於訂單 {{order_number}}，請換一個揀貨箱',
    ja: 'トート {{tote_code}} は注文 {{order_number}} で使用中です。別のトートを使ってください',
    en: 'Tote {{tote_code}} is in use for order {{order_number}}; take another tote',
  },
  PICK_SHORTAGE: {
    status: 409,
    'zh-TW': '揀貨短缺：儲位 {{location}} 的 {{product_number}} 缺 {{quantity}} 件',
    ja: 'ピッキング欠品：ロケーション {{location}} の {{product_number}} が {{quantity}} 点不足',
    en: 'Short pick: {{quantity}} of {{product_number}} missing at location {{location}}',
  },
  STOCKTAKE_INCOMPLETE: {
    status: 409,
    'zh-TW': '本輪尚有 {{remaining}} 個儲位未盤點',
    ja: 'このラウンドでまだ {{remaining}} 件のロケーションが棚卸されていません',
    en: '{{remaining}} storage locations are not counted yet in this round',
  },
  STOCKTAKE_NOTHING_TO_RECOUNT: {
    status: 409,
    'zh-TW': '沒有與帳面不符的明細，無需下一輪盤點，請直接結案',
    ja: '帳簿と異なる明細がないため次の棚卸は不要です。完了してください',
    en: 'No line differs from the book, so there is nothing to recount: close the case instead',
  },
  STOCKTAKE_NOT_ON_SHEET: {
    status: 400,
    'zh-TW': '{{field}} 不在本盤點單（或本輪）的盤點範圍內',
    ja: '{{field}} はこの棚卸表（またはこのラウンド）の対象外です',
    en: '{{field}} is not on this stocktake sheet (or not in this round)',
  },
  STOCKTAKE_OVERLAP: {
    status: 409,
    'zh-TW': '儲位 {{location_code}} 已在進行中的盤點單 {{number}} 中',
    ja: 'ロケーション {{location_code}} は進行中の棚卸表 {{number}} に含まれています',
    en: 'Storage location {{location_code}} is already on open stocktake {{number}}',
  },
  STOCKTAKE_EMPTY: {
    status: 400,
    'zh-TW': '盤點範圍內沒有任何儲位',
    ja: '棚卸の対象となるロケーションがありません',
    en: 'There is no storage location to count in this scope',
  },
  STORE_CLOSED: {
    status: 409,
    'zh-TW': '商店目前未開放，暫時無法訂購',
    ja: 'ストアは現在閉店中のため注文できません',
    en: 'The store is closed; orders cannot be placed now',
  },
  STORE_NOT_CREATED: {
    status: 409,
    'zh-TW': '請先於「商店管理」建立線上商店',
    ja: '先に「ストア管理」でオンラインストアを作成してください',
    en: 'Create the online store in Store administration first',
  },
  RETURN_ORDER_STATUS: {
    status: 409,
    'zh-TW': '訂單 {{order_number}} 目前狀態不允許此退貨作業',
    ja: '注文 {{order_number}} の現在のステータスではこの返品処理はできません',
    en: 'Order {{order_number}} is not in a status that allows this return',
  },
  BILLING_NO_CONTRACT: {
    status: 409,
    'zh-TW': '尚未設定合約，請聯絡客服人員',
    ja: '契約がまだ設定されていません。サポート担当者に連絡してください',
    en: 'No contract has been set up yet; contact the support staff',
  },
  BILLING_NOT_STARTED: {
    status: 409,
    'zh-TW': '合約自 {{start_date}} 起生效，尚無應繳款項',
    ja: '契約は {{start_date}} から開始します。まだお支払いはありません',
    en: 'The contract starts on {{start_date}}; nothing is due yet',
  },
  PAYMENT_NOT_CONFIGURED: {
    status: 409,
    'zh-TW': '尚未設定金流服務（{{provider}}），請聯絡系統管理員',
    ja: '決済サービス（{{provider}}）が設定されていません。システム管理者に連絡してください',
    en: 'The payment service ({{provider}}) is not set up; ask the system administrator',
  },
  PAYMENT_SIGNATURE_INVALID: {
    status: 401,
    'zh-TW': '金流通知的檢查碼不正確',
    ja: '決済通知のチェックコードが正しくありません',
    en: 'The payment notification check value is not valid',
  },
  PERIOD_ALREADY_PAID: {
    status: 409,
    'zh-TW': '期間 {{period}} 已付款，不會再次扣款',
    ja: '期間 {{period}} はお支払い済みです。再度請求されることはありません',
    en: 'The period {{period}} is already paid; it is not charged again',
  },
  PAYMENT_IN_PROGRESS: {
    status: 409,
    'zh-TW': '期間 {{period}} 已有一筆付款處理中，請等待結果後再操作',
    ja: '期間 {{period}} の支払いを処理中です。結果が出るまでお待ちください',
    en: 'A payment for the period {{period}} is in progress; wait for its result',
  },
  DISPUTE_CLOSED: {
    status: 409,
    'zh-TW': '此異議已處理（{{status}}），不能再次處理',
    ja: 'この異議は処理済みです（{{status}}）',
    en: 'This dispute has been answered already ({{status}})',
  },
  STATEMENT_ALREADY_PAID: {
    status: 409,
    'zh-TW': '對帳單 {{number}} 已付款，不會再次扣款',
    ja: '請求書 {{number}} はお支払い済みです。再度請求されることはありません',
    en: 'The statement {{number}} is already paid; it is not charged again',
  },
  STATEMENT_PAYMENT_IN_PROGRESS: {
    status: 409,
    'zh-TW': '對帳單 {{number}} 已有一筆付款處理中（{{order_number}}），請等待結果後再操作',
    ja: '請求書 {{number}} の支払いを処理中です（{{order_number}}）。結果が出るまでお待ちください',
    en: 'A payment of the statement {{number}} is in progress ({{order_number}}); wait for its result',
  },
  PERIOD_NOT_DUE: {
    status: 409,
    'zh-TW': '期間 {{period}} 目前不可付款；應繳期間為 {{due}}',
    ja: '期間 {{period}} は現在お支払いできません。お支払い対象の期間は {{due}} です',
    en: 'The period {{period}} cannot be paid now; the period due is {{due}}',
  },
  PAYMENT_NOT_REFUNDABLE: {
    status: 409,
    'zh-TW': '交易 {{order_number}} 未付款成功，無法退款',
    ja: '取引 {{order_number}} は支払いが完了していないため返金できません',
    en: 'The payment {{order_number}} did not succeed; it cannot be refunded',
  },
  REFUND_EXCEEDS_REMAINING: {
    status: 409,
    'zh-TW': '退款金額 {{amount}} 超過可退金額 {{remaining}}',
    ja: '返金額 {{amount}} が返金可能額 {{remaining}} を超えています',
    en: 'The refund amount {{amount}} is more than the {{remaining}} left to refund',
  },
  REFUND_IN_PROGRESS: {
    status: 409,
    'zh-TW': '交易 {{order_number}} 已有一筆退款等待金流回覆，請稍後再試',
    ja: '取引 {{order_number}} の返金は決済サービスの応答待ちです。しばらくしてから再試行してください',
    en: 'A refund of {{order_number}} is waiting for the provider’s answer; try again later',
  },
  BILLING_HAS_CONTRACT: {
    status: 409,
    'zh-TW': '您已有合約，無需再申請',
    ja: 'すでに契約があります。申請は不要です',
    en: 'You already have a contract; no request is needed',
  },
  BILLING_NO_PLAN: {
    status: 409,
    'zh-TW': '尚未設定此方案（{{period}}）的牌價，請聯絡客服人員',
    ja: 'このプラン（{{period}}）の定価はまだ設定されていません。サポート担当者に連絡してください',
    en: 'No list price is set for this plan ({{period}}); contact the support staff',
  },
  RECONCILIATION_RESOLVED: {
    status: 409,
    'zh-TW': '此對帳差異已處理',
    ja: 'この照合差異はすでに処理済みです',
    en: 'This reconciliation difference is already resolved',
  },
  PAYMENT_UNAVAILABLE: {
    status: 503,
    'zh-TW': '金流服務沒有回應，請先查看交易紀錄確認是否已扣款再重試',
    ja: '決済サービスが応答しません。再試行する前に取引記録で請求の有無を確認してください',
    en: 'The payment service did not answer; check the transaction records before trying again',
  },
} as const satisfies Record<string, Messages & { status: number }>;

export type TErrorCode = keyof typeof ERROR_CATALOGUE;
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as TErrorCode[];

/** Field labels used in REQUIRED_FIELD / INVALID_FIELD messages (spec §5 names these). Unknown fields fall back to their key. */
export const FIELD_LABELS: Record<string, Messages> = {
  logistics_provider_ids: { 'zh-TW': '物流商', ja: '配送業者', en: 'Carriers' },
  cvs_chain: { 'zh-TW': '超商通路', ja: 'コンビニチェーン', en: 'Convenience-store chain' },
  priority: { 'zh-TW': '訂單範圍', ja: '対象注文', en: 'Orders taken' },
  max_orders: { 'zh-TW': '訂單數上限', ja: '最大注文数', en: 'Max orders' },
  max_units: { 'zh-TW': '件數上限', ja: '最大数量', en: 'Max units' },
  sequence: { 'zh-TW': '順序', ja: '順序', en: 'Sequence' },
  active: { 'zh-TW': '啟用', ja: '有効', en: 'Active' },
  email: { 'zh-TW': '電子郵件', ja: 'メールアドレス', en: 'E-mail' },
  password: { 'zh-TW': '密碼', ja: 'パスワード', en: 'Password' },
  old_password: { 'zh-TW': '目前密碼', ja: '現在のパスワード', en: 'Current password' },
  new_password: { 'zh-TW': '新密碼', ja: '新しいパスワード', en: 'New password' },
  otp: { 'zh-TW': '驗證碼', ja: '認証コード', en: 'Verification code' },
  user_id: { 'zh-TW': '使用者', ja: 'ユーザー', en: 'User' },
  refresh: { 'zh-TW': '更新憑證', ja: 'リフレッシュトークン', en: 'Refresh token' },
  corp: { 'zh-TW': '公司', ja: '会社', en: 'Corporation' },
  name: { 'zh-TW': '名稱', ja: '名称', en: 'Name' },
  company_name: { 'zh-TW': '公司名稱', ja: '会社名', en: 'Company name' },
  address: { 'zh-TW': '地址', ja: '住所', en: 'Address' },
  label_printer_host: {
    'zh-TW': '標籤機位址（IP 或主機）',
    ja: 'ラベルプリンターのアドレス（IP またはホスト）',
    en: 'Label printer address (IP or host)',
  },
  label_printer_port: { 'zh-TW': '標籤機連接埠', ja: 'ラベルプリンターのポート', en: 'Label printer port' },
  label_format: { 'zh-TW': '預設標籤格式', ja: '既定のラベル形式', en: 'Default label format' },
  phone: { 'zh-TW': '電話', ja: '電話番号', en: 'Phone' },
  postcode: { 'zh-TW': '郵遞區號', ja: '郵便番号', en: 'Postal code' },
  recipient_name: { 'zh-TW': '收件人姓名', ja: '受取人名', en: 'Recipient name' },
  consignment_number: { 'zh-TW': '託運單號', ja: '送り状番号', en: 'Consignment number' },
  volume: { 'zh-TW': '材積', ja: '容積', en: 'Volume' },
  language: { 'zh-TW': '語言', ja: '言語', en: 'Language' },
  theme: { 'zh-TW': '主題', ja: 'テーマ', en: 'Theme' },
  code: { 'zh-TW': '代碼', ja: 'コード', en: 'Code' },
  quantity: { 'zh-TW': '數量', ja: '数量', en: 'Quantity' },
  body: { 'zh-TW': '請求內容', ja: 'リクエスト本文', en: 'Request body' },
  receipt_number: { 'zh-TW': '入庫單號', ja: '入庫番号', en: 'Receipt number' },
  product_number: { 'zh-TW': '商品編號', ja: '商品番号', en: 'Product number' },
  product_name: { 'zh-TW': '商品名稱', ja: '商品名', en: 'Product name' },
  product_id: { 'zh-TW': '商品', ja: '商品', en: 'Product' },
  expiry_date: { 'zh-TW': '有效日期', ja: '賞味期限', en: 'Expiry date' },
  planned_date: { 'zh-TW': '預計入庫日', ja: '入庫予定日', en: 'Planned date' },
  remark: { 'zh-TW': '備註', ja: '備考', en: 'Remark' },
  lines: { 'zh-TW': '明細', ja: '明細', en: 'Lines' },
  line_id: { 'zh-TW': '明細', ja: '明細', en: 'Line' },
  line_no: { 'zh-TW': '項次', ja: '行番号', en: 'Line no.' },
  accepted_quantity: { 'zh-TW': '驗收數量', ja: '検品数量', en: 'Accepted quantity' },
  defective_quantity: { 'zh-TW': '不良數量', ja: '不良数量', en: 'Defective quantity' },
  good_quantity: { 'zh-TW': '良品數量', ja: '良品数量', en: 'Good quantity' },
  location_id: { 'zh-TW': '儲位', ja: 'ロケーション', en: 'Storage location' },
  location_code: { 'zh-TW': '儲位', ja: 'ロケーション', en: 'Storage location' },
  defective_location_id: { 'zh-TW': '不良品儲位', ja: '不良品ロケーション', en: 'Defective location' },
  defective_location_code: { 'zh-TW': '不良品儲位', ja: '不良品ロケーション', en: 'Defective location' },
  to_location_id: { 'zh-TW': '目的儲位', ja: '移動先ロケーション', en: 'Destination location' },
  balance_id: { 'zh-TW': '庫存批次', ja: '在庫ロット', en: 'Stock lot' },
  balance_ids: { 'zh-TW': '庫存批次', ja: '在庫ロット', en: 'Stock lots' },
  reason: { 'zh-TW': '異動原因', ja: '変動理由', en: 'Reason' },
  document_number: { 'zh-TW': '單據號碼', ja: '伝票番号', en: 'Document number' },
  on_hand: { 'zh-TW': '在庫數', ja: '在庫数', en: 'On hand' },
  reserved: { 'zh-TW': '已配貨', ja: '引当済み', en: 'Reserved' },
  available: { 'zh-TW': '可用數', ja: '引当可能数', en: 'Available' },
  on_hand_after: { 'zh-TW': '異動後庫存', ja: '変動後在庫', en: 'On hand after' },
  confirmed_at: { 'zh-TW': '確認時間', ja: '確認日時', en: 'Confirmed at' },
  user_name: { 'zh-TW': '操作人員', ja: '担当者', en: 'User' },
  note: { 'zh-TW': '說明', ja: 'メモ', en: 'Note' },
  date_from: { 'zh-TW': '起始日期', ja: '開始日', en: 'From' },
  date_to: { 'zh-TW': '結束日期', ja: '終了日', en: 'To' },
  expiry_from: { 'zh-TW': '有效日期起', ja: '賞味期限（から）', en: 'Expiry from' },
  expiry_to: { 'zh-TW': '有效日期迄', ja: '賞味期限（まで）', en: 'Expiry to' },
  days: { 'zh-TW': '天數', ja: '日数', en: 'Days' },
  mode: { 'zh-TW': '篩選方式', ja: '抽出条件', en: 'Mode' },
  location_kind: { 'zh-TW': '儲位類型', ja: 'ロケーション種別', en: 'Location kind' },
  document_type: { 'zh-TW': '單據類型', ja: '伝票種別', en: 'Document type' },
  warehouse_id: { 'zh-TW': '倉庫', ja: '倉庫', en: 'Warehouse' },
  area_id: { 'zh-TW': '區域', ja: 'エリア', en: 'Area' },
  shelf_id: { 'zh-TW': '貨架', ja: '棚', en: 'Shelf' },
  layers: { 'zh-TW': '層數', ja: '段数', en: 'Layers' },
  layer: { 'zh-TW': '層', ja: '段', en: 'Layer' },
  cells: { 'zh-TW': '格數', ja: 'セル数', en: 'Cells' },
  positions_per_layer: { 'zh-TW': '每層儲位數', ja: '段ごとのロケーション数', en: 'Locations per layer' },
  kind: { 'zh-TW': '儲位類型', ja: 'ロケーション種別', en: 'Location kind' },
  pick_sequence: { 'zh-TW': '揀貨順序', ja: 'ピッキング順', en: 'Pick sequence' },
  category: { 'zh-TW': '類別', ja: '分類', en: 'Category' },
  number: { 'zh-TW': '商品編號', ja: '商品番号', en: 'Product number' },
  barcode: { 'zh-TW': '國際條碼', ja: '国際バーコード', en: 'International barcode' },
  type: { 'zh-TW': '商品類型', ja: '商品タイプ', en: 'Product type' },
  category_id: { 'zh-TW': '商品分類', ja: '商品分類', en: 'Product category' },
  unit: { 'zh-TW': '單位', ja: '単位', en: 'Unit' },
  unit_price: { 'zh-TW': '單價', ja: '単価', en: 'Unit price' },
  selling_price: { 'zh-TW': '售價', ja: '販売価格', en: 'Selling price' },
  cost: { 'zh-TW': '成本', ja: '原価', en: 'Cost' },
  weight: { 'zh-TW': '重量', ja: '重量', en: 'Weight' },
  weight_unit: { 'zh-TW': '重量單位', ja: '重量単位', en: 'Weight unit' },
  length_cm: { 'zh-TW': '長(cm)', ja: '長さ(cm)', en: 'Length (cm)' },
  width_cm: { 'zh-TW': '寬(cm)', ja: '幅(cm)', en: 'Width (cm)' },
  height_cm: { 'zh-TW': '高(cm)', ja: '高さ(cm)', en: 'Height (cm)' },
  safety_stock: { 'zh-TW': '安全庫存', ja: '安全在庫', en: 'Safety stock' },
  stocking_days: { 'zh-TW': '備貨天數', ja: '在庫日数', en: 'Stocking days' },
  shelf_life_months: { 'zh-TW': '保存期限(月)', ja: '賞味期間(月)', en: 'Shelf life (months)' },
  sellable_rule_months: { 'zh-TW': '允收期規則(月)', ja: '販売可能期限ルール(月)', en: 'Sellable-date rule (months)' },
  allowed_sale_date: { 'zh-TW': '允許銷售日', ja: '販売許可日', en: 'Allowed-sale date' },
  status: { 'zh-TW': '狀態', ja: 'ステータス', en: 'Status' },
  components: { 'zh-TW': '組合內容', ja: '構成品', en: 'Components' },
  component_id: { 'zh-TW': '組件商品', ja: '構成品', en: 'Component product' },
  default_logistics_provider_id: { 'zh-TW': '預設物流商', ja: 'デフォルト配送業者', en: 'Default logistics provider' },
  default_platform_id: { 'zh-TW': '預設電商平台', ja: 'デフォルトECプラットフォーム', en: 'Default platform' },
  tax_id: { 'zh-TW': '統一編號', ja: '統一番号（税番号）', en: 'Tax id (unified business number)' },
  invoice_title: { 'zh-TW': '發票抬頭', ja: '請求書の宛名', en: 'Invoice title' },
  invoice_address: { 'zh-TW': '發票地址', ja: '請求書の住所', en: 'Invoice address' },
  fax: { 'zh-TW': '傳真', ja: 'FAX', en: 'Fax' },
  website: { 'zh-TW': '網站', ja: 'ウェブサイト', en: 'Website' },
  merchant_id: { 'zh-TW': '商店代號', ja: 'マーチャントID', en: 'Merchant id' },
  hash_key: { 'zh-TW': 'HashKey', ja: 'HashKey', en: 'Hash key' },
  hash_iv: { 'zh-TW': 'HashIV', ja: 'HashIV', en: 'Hash IV' },
  contract_type: { 'zh-TW': '契約類型', ja: '契約種別', en: 'Contract type' },
  temperature_code: { 'zh-TW': '溫層代碼', ja: '温度帯コード', en: 'Temperature code' },
  specification_code: { 'zh-TW': '規格代碼', ja: 'サイズコード', en: 'Specification code' },
  billing_basis: { 'zh-TW': '計費模式', ja: '課金方式', en: 'Billing model' },
  carrier_type: { 'zh-TW': '物流 API', ja: '配送 API', en: 'Carrier API' },
  store_number: { 'zh-TW': '商店編號', ja: 'ストア番号', en: 'Store number' },
  url: { 'zh-TW': '網址', ja: 'URL', en: 'URL' },
  file_base64: { 'zh-TW': '檔案', ja: 'ファイル', en: 'File' },
  warehouse_code: { 'zh-TW': '倉庫代碼', ja: '倉庫コード', en: 'Warehouse code' },
  area_code: { 'zh-TW': '區域代碼', ja: 'エリアコード', en: 'Area code' },
  shelf_code: { 'zh-TW': '貨架代碼', ja: '棚コード', en: 'Shelf code' },
  location_count: { 'zh-TW': '儲位數', ja: 'ロケーション数', en: 'Locations' },
  product_count: { 'zh-TW': '商品數', ja: '商品数', en: 'Products' },
  is_active: { 'zh-TW': '啟用', ja: '有効', en: 'Active' },
  short_url: { 'zh-TW': '短網址', ja: '短縮URL', en: 'Short URL' },
  logo: { 'zh-TW': '商店標誌', ja: 'ストアロゴ', en: 'Logo' },
  description: { 'zh-TW': '說明', ja: '説明', en: 'Description' },
  volume_required: { 'zh-TW': '需填材積', ja: '容積必須', en: 'Volume required' },
  fragile: { 'zh-TW': '易碎品', ja: '割れ物', en: 'Fragile' },
  can_pack_together: { 'zh-TW': '可合併包裝', ja: '同梱可', en: 'Can be packed together' },
  allow_shipping: { 'zh-TW': '允許出貨', ja: '出荷可', en: 'Allow shipping' },
  online_listing: { 'zh-TW': '上架', ja: 'オンライン掲載', en: 'Online listing' },
  requires_serial: { 'zh-TW': '需登錄序號', ja: 'シリアル登録必須', en: 'Requires serial' },
  default_logistics_provider: {
    'zh-TW': '預設物流商代碼',
    ja: 'デフォルト配送業者コード',
    en: 'Default logistics provider code',
  },
  default_platform: {
    'zh-TW': '預設電商平台代碼',
    ja: 'デフォルトECプラットフォームコード',
    en: 'Default platform code',
  },
  ordering: { 'zh-TW': '排序', ja: '並び順', en: 'Ordering' },
  page: { 'zh-TW': '頁碼', ja: 'ページ番号', en: 'Page' },
  page_size: { 'zh-TW': '每頁筆數', ja: '1 ページの件数', en: 'Page size' },
  search: { 'zh-TW': '搜尋文字', ja: '検索文字列', en: 'Search text' },
  id: { 'zh-TW': 'ID', ja: 'ID', en: 'ID' },
  callback_enabled: { 'zh-TW': '啟用回呼', ja: 'コールバック有効', en: 'Callback enabled' },
  order_number: { 'zh-TW': '訂單編號', ja: '注文番号', en: 'Order number' },
  platform_order_number: { 'zh-TW': '平台訂單編號', ja: 'プラットフォーム注文番号', en: 'Platform order number' },
  third_party_number: { 'zh-TW': '第三方單號', ja: '第三者番号', en: 'Third-party number' },
  shipping_date: { 'zh-TW': '出貨日期', ja: '出荷日', en: 'Shipping date' },
  channel: { 'zh-TW': '通路', ja: 'チャネル', en: 'Channel' },
  platform: { 'zh-TW': '電商平台', ja: 'ECプラットフォーム', en: 'E-commerce platform' },
  platform_id: { 'zh-TW': '電商平台', ja: 'ECプラットフォーム', en: 'E-commerce platform' },
  is_cross_border: { 'zh-TW': '跨境', ja: '越境', en: 'Cross-border' },
  recipient_phone: { 'zh-TW': '收件人電話', ja: '受取人電話番号', en: 'Recipient phone' },
  recipient_mobile: { 'zh-TW': '收件人手機', ja: '受取人携帯番号', en: 'Recipient mobile' },
  recipient_postcode: { 'zh-TW': '收件人郵遞區號', ja: '受取人郵便番号', en: 'Recipient postal code' },
  recipient_address: { 'zh-TW': '收件人地址', ja: '受取人住所', en: 'Recipient address' },
  sender_name: { 'zh-TW': '寄件人姓名', ja: '差出人名', en: 'Sender name' },
  pickup_address_id: { 'zh-TW': '收件地址', ja: '集荷先住所', en: 'Pickup address' },
  pickup_slot: { 'zh-TW': '收件時段規則', ja: '集荷時間帯のルール', en: 'Pickup time-slot rule' },
  pickup_after: { 'zh-TW': '最早收件時間', ja: '集荷開始時刻', en: 'Pickup from (time of day)' },
  dropoff_branches: { 'zh-TW': '寄件門市', ja: '持ち込み店舗', en: 'Drop-off branch' },
  cvs_subtype: { 'zh-TW': '超商取貨類型', ja: 'コンビニ受取の種類', en: 'Store pickup kind' },
  cvs_store_id: { 'zh-TW': '取貨門市代號', ja: '受取店舗コード', en: 'Pickup store id' },
  cvs_store_name: { 'zh-TW': '取貨門市名稱', ja: '受取店舗名', en: 'Pickup store name' },
  store_id: { 'zh-TW': '門市代號', ja: '店舗コード', en: 'Store id' },
  sender_phone: { 'zh-TW': '寄件人電話', ja: '差出人電話番号', en: 'Sender phone' },
  sender_postcode: { 'zh-TW': '寄件人郵遞區號', ja: '差出人郵便番号', en: 'Sender postal code' },
  sender_address: { 'zh-TW': '寄件人地址', ja: '差出人住所', en: 'Sender address' },
  shipping_remark: { 'zh-TW': '出貨備註', ja: '出荷備考', en: 'Shipping remark' },
  warehouse: { 'zh-TW': '出貨倉庫', ja: '出荷倉庫', en: 'Assigned warehouse' },
  arrival_date: { 'zh-TW': '指定到貨日', ja: '到着希望日', en: 'Requested arrival date' },
  arrival_time_slot: { 'zh-TW': '指定到貨時段', ja: '到着希望時間帯', en: 'Requested time slot' },
  logistics_provider: { 'zh-TW': '物流商', ja: '配送業者', en: 'Logistics provider' },
  logistics_provider_id: { 'zh-TW': '物流商', ja: '配送業者', en: 'Logistics provider' },
  cutoff_time: { 'zh-TW': '截單時間', ja: '締め時刻', en: 'Cut-off time' },
  pickup_time: { 'zh-TW': '收貨時間', ja: '集荷時刻', en: 'Pick-up time' },
  before_time: { 'zh-TW': '當日出貨截止時間', ja: '当日出荷の締め時刻', en: 'Same-day order deadline' },
  holidays: { 'zh-TW': '休假日', ja: '休業日', en: 'Holidays' },
  cod: { 'zh-TW': '貨到付款', ja: '代金引換', en: 'Collect on delivery' },
  cod_amount: { 'zh-TW': '代收金額', ja: '代引金額', en: 'Collect-on-delivery amount' },
  total_amount: { 'zh-TW': '訂單總金額', ja: '注文合計金額', en: 'Total amount' },
  piece_count: { 'zh-TW': '件數', ja: '個口数', en: 'Piece count' },
  product: { 'zh-TW': '商品編號', ja: '商品番号', en: 'Product number' },
  serial: { 'zh-TW': 'IMEI／序號', ja: 'IMEI／シリアル', en: 'IMEI/serial' },
  packaging_material_id: { 'zh-TW': '包材', ja: '梱包資材', en: 'Packaging material' },
  order_ids: { 'zh-TW': '訂單', ja: '注文', en: 'Orders' },
  order: { 'zh-TW': '訂單編號', ja: '注文番号', en: 'Order number' },
  batch: { 'zh-TW': '集貨單號', ja: '集荷バッチ番号', en: 'Collection batch' },
  line_count: { 'zh-TW': '品項數', ja: '明細数', en: 'Lines' },
  unit_count: { 'zh-TW': '總件數', ja: '総数量', en: 'Units' },
  created_at: { 'zh-TW': '建立時間', ja: '作成日時', en: 'Created at' },
  exported_at: { 'zh-TW': '轉出時間', ja: '出庫指示日時', en: 'Exported at' },
  closed_at: { 'zh-TW': '結案時間', ja: '完了日時', en: 'Closed at' },
  header_row: { 'zh-TW': '標題列', ja: '見出し行', en: 'Header row' },
  mapping: { 'zh-TW': '欄位對應', ja: '列の対応', en: 'Column mapping' },
  return_number: { 'zh-TW': '退貨單號', ja: '返品番号', en: 'Return number' },
  return_category: { 'zh-TW': '退貨類別', ja: '返品区分', en: 'Return category' },
  return_planned_date: { 'zh-TW': '預計退貨日', ja: '返品予定日', en: 'Planned return date' },
  supplier_return_number: { 'zh-TW': '退供應商單號', ja: '仕入先返品番号', en: 'Return-to-supplier number' },
  supplier_return_reason: { 'zh-TW': '退回原因', ja: '返品理由', en: 'Return reason' },
  supplier_name: { 'zh-TW': '供應商', ja: '仕入先', en: 'Supplier' },
  supplier_contact: { 'zh-TW': '供應商聯絡人', ja: '仕入先担当者', en: 'Supplier contact' },
  supplier_phone: { 'zh-TW': '供應商電話', ja: '仕入先電話番号', en: 'Supplier phone' },
  supplier_address: { 'zh-TW': '供應商地址', ja: '仕入先住所', en: 'Supplier address' },
  dispatch_date: { 'zh-TW': '預計出庫日', ja: '出庫予定日', en: 'Planned dispatch date' },
  dispatched_at: { 'zh-TW': '出庫時間', ja: '出庫日時', en: 'Dispatched at' },
  stocktake_number: { 'zh-TW': '盤點單號', ja: '棚卸番号', en: 'Stocktake number' },
  year: { 'zh-TW': '年度', ja: '年度', en: 'Year' },
  attribute: { 'zh-TW': '屬性', ja: '属性', en: 'Attribute' },
  scope: { 'zh-TW': '盤點範圍', ja: '棚卸対象', en: 'Scope' },
  sample_size: { 'zh-TW': '抽盤數量', ja: '抽出数', en: 'Sample size' },
  location_ids: { 'zh-TW': '盤點儲位', ja: '対象ロケーション', en: 'Storage locations' },
  product_ids: { 'zh-TW': '盤點商品', ja: '対象商品', en: 'Products' },
  started_at: { 'zh-TW': '掃描時間', ja: 'スキャン日時', en: 'Scanned at' },
  items: { 'zh-TW': '盤點明細', ja: '棚卸明細', en: 'Counted items' },
  book_initial: { 'zh-TW': '建單時帳面數', ja: '作成時帳簿数', en: 'Book at creation' },
  count_1: { 'zh-TW': '初盤數', ja: '一次棚卸数', en: 'First count' },
  book_1: { 'zh-TW': '初盤帳面數', ja: '一次帳簿数', en: 'Book (first count)' },
  count_2: { 'zh-TW': '複盤數', ja: '再棚卸数', en: 'Review count' },
  book_2: { 'zh-TW': '複盤帳面數', ja: '再棚卸帳簿数', en: 'Book (review count)' },
  count_3: { 'zh-TW': '三盤數', ja: '三次棚卸数', en: 'Third count' },
  book_3: { 'zh-TW': '三盤帳面數', ja: '三次帳簿数', en: 'Book (third count)' },
  difference: { 'zh-TW': '差異', ja: '差異', en: 'Difference' },
  variance: { 'zh-TW': '盤差調整', ja: '棚卸差異調整', en: 'Variance posted' },
  // API settings (spec §3)
  callback_url: { 'zh-TW': '回呼網址', ja: 'コールバック URL', en: 'Callback URL' },
  http_headers: { 'zh-TW': 'HTTP 標頭', ja: 'HTTP ヘッダー', en: 'HTTP headers' },
  order_callback_enabled: { 'zh-TW': '訂單回呼', ja: '注文コールバック', en: 'Order callback' },
  callback_events: { 'zh-TW': '回呼事件', ja: 'コールバックイベント', en: 'Callback events' },
  connection_id: { 'zh-TW': '使用的連線', ja: '使用する接続', en: 'Connection' },
  rate_limit_per_minute: { 'zh-TW': '每分鐘請求上限', ja: '1 分あたりのリクエスト上限', en: 'Requests per minute' },
  base_url: { 'zh-TW': '基本網址', ja: 'ベース URL', en: 'Base URL' },
  token_url: { 'zh-TW': '權杖網址', ja: 'トークン URL', en: 'Token URL' },
  access_token: { 'zh-TW': '存取權杖', ja: 'アクセストークン', en: 'Access token' },
  refresh_token: { 'zh-TW': '更新權杖', ja: 'リフレッシュトークン', en: 'Refresh token' },
  customer_id: { 'zh-TW': '賣家', ja: '販売者', en: 'Seller' },
  month: { 'zh-TW': '月份', ja: '月', en: 'Month' },
  valid_from: { 'zh-TW': '生效日', ja: '適用開始日', en: 'Valid from' },
  rates: { 'zh-TW': '費率', ja: '料金', en: 'Rates' },
  receiving_receipt: { 'zh-TW': '入庫費（每張入庫單）', ja: '入庫料（入庫伝票ごと）', en: 'Receiving per receipt' },
  receiving_unit: { 'zh-TW': '入庫費（每件）', ja: '入庫料（1 点ごと）', en: 'Receiving per unit' },
  pick_order: { 'zh-TW': '揀貨包裝費（每筆訂單）', ja: 'ピッキング・梱包料（注文ごと）', en: 'Pick & pack per order' },
  pick_extra_unit: {
    'zh-TW': '揀貨包裝費（第 2 件起每件）',
    ja: 'ピッキング・梱包料（2 点目以降 1 点ごと）',
    en: 'Pick & pack per extra unit',
  },
  storage_location_day: {
    'zh-TW': '倉儲費（每儲位每日）',
    ja: '保管料（ロケーション・日）',
    en: 'Storage per location-day',
  },
};

/** Resolve an Accept-Language header to one of our languages (default zh-TW). */
export function pickLanguage(header: string | undefined | null): TLanguage {
  if (!header) return DEFAULT_LANGUAGE;
  const wanted = header
    .split(',')
    .map((part) => {
      const [tag, ...rest] = part.trim().split(';');
      const q = rest.find((r) => r.trim().startsWith('q='));
      return { tag: (tag ?? '').toLowerCase(), q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .filter((x) => x.tag && !Number.isNaN(x.q))
    .sort((a, b) => b.q - a.q);
  for (const { tag } of wanted) {
    if (tag.startsWith('zh')) return 'zh-TW';
    if (tag.startsWith('ja')) return 'ja';
    if (tag.startsWith('en')) return 'en';
  }
  return DEFAULT_LANGUAGE;
}

/** Fields whose English label is plural: the verb after it agrees ("Lines are not valid"). */
const PLURAL_EN = new Set([
  'logistics_provider_ids',
  'rates',
  'lines',
  'balance_ids',
  'components',
  'order_ids',
  'location_ids',
  'product_ids',
  'items',
  'http_headers',
  'callback_events',
  'layers',
  'cells',
  'days',
  'stocking_days',
]);

/** How a field on an array's element is named: 「第 1 行的數量」, 「1 行目の数量」, "Quantity on line 1". */
const ON_LINE: Record<TLanguage, (line: number, label: string) => string> = {
  'zh-TW': (line, label) => `第 ${line} 行的${label}`,
  ja: (line, label) => `${line} 行目の${label}`,
  en: (line, label) => `${label} on line ${line}`,
};

const isIndex = (segment: string | undefined) => segment !== undefined && /^\d+$/.test(segment);
const ownLabel = (key: string, lang: TLanguage) =>
  Object.hasOwn(FIELD_LABELS, key) ? FIELD_LABELS[key]![lang] : undefined;

/** The key a (dotted) field path is named by (its last named segment) and the array line it sits on, if any. */
function resolveField(field: string): { key: string; line?: number } {
  if (ownLabel(field, 'en') !== undefined || !field.includes('.')) return { key: field };
  const parts = field.split('.');
  let at = parts.length - 1;
  while (at > 0 && isIndex(parts[at])) at--;
  const key = parts[at]!;
  // `lines.0.quantity`: the element's index sits just before the leaf; `location_ids.3` is named by its list.
  return isIndex(parts[at - 1]) ? { key, line: Number(parts[at - 1]) + 1 } : { key };
}

/** A field's label in the user's language; a path (`lines.0.quantity`) is named by its leaf and line number. */
export function fieldLabel(field: string, lang: TLanguage): string {
  const { key, line } = resolveField(field);
  const label = ownLabel(key, lang) ?? key;
  return line === undefined ? label : ON_LINE[lang](line, label);
}

/** English "{{field}} is …" reads "… are …" after a plural label. */
function agreeWithField(template: string, field: unknown, lang: TLanguage): string {
  if (lang !== 'en' || typeof field !== 'string' || !PLURAL_EN.has(resolveField(field).key)) return template;
  return template
    .replace('{{field}} is ', '{{field}} are ')
    .replace('{{field}} already exists', '{{field}} already exist');
}

/** Han, kana and full-width forms: no space is written between two of these. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;

/**
 * Render the catalogue message for a code with its params (`{{field}}` is turned into the field's label). The
 * templates put a space after the field so a Latin label reads well (「IMEI 為必填」); after a Chinese or Japanese
 * label that space is dropped (「代碼為必填」, not 「代碼 為必填」).
 */
export function errorMessage(code: TErrorCode, lang: TLanguage, params: Record<string, unknown> = {}): string {
  const template: string = agreeWithField(ERROR_CATALOGUE[code][lang], params.field, lang);
  return template.replace(/\{\{(\w+)\}\}( ?)/g, (_, key: string, space: string, at: number) => {
    const value = params[key];
    const text =
      key === 'field' && typeof value === 'string' ? fieldLabel(value, lang) : value === undefined ? '' : String(value);
    const next = template.charAt(at + key.length + 4 + space.length);
    const joined = space && CJK.test(text.slice(-1)) && CJK.test(next);
    return text + (joined ? '' : space);
  });
}

export interface TErrorBody {
  error: { code: TErrorCode; message: string; params?: Record<string, unknown> };
}
