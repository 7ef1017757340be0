<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja_JP">
<context>
    <name></name>
    <message>
        <source>Set {0} of {1}</source>
        <translation>{1} の {0} を変更</translation>
    </message>
    <message>
        <source>Move {0} of {1}</source>
        <translation>{1} の {0} を動かす</translation>
    </message>
    <message>
        <source>Rename token to {0}</source>
        <translation>トークン名を {0} に変更</translation>
    </message>
    <message>
        <source>Insert token {0}</source>
        <translation>トークン {0} を挿入</translation>
    </message>
    <message>
        <source>Remove token {0}</source>
        <translation>トークン {0} を削除</translation>
    </message>
    <message>
        <source>Hide the future (causal mask)</source>
        <translation>未来を隠す（causal mask）</translation>
    </message>
    <message>
        <source>÷ √d_k</source>
        <translation>÷ √d_k</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>スケールの強さ（温度）</translation>
    </message>
    <message>
        <source>Hide the future</source>
        <translation>未来を隠す</translation>
    </message>
    <message>
        <source>Show the future</source>
        <translation>未来を見せる</translation>
    </message>
    <message>
        <source>Divide by √d_k</source>
        <translation>√d_k で割る</translation>
    </message>
    <message>
        <source>Do not divide by √d_k</source>
        <translation>√d_k で割らない</translation>
    </message>
    <message>
        <source>Temperature {0}</source>
        <translation>温度 {0}</translation>
    </message>
    <message>
        <source>q is derived from X and W_q here</source>
        <translation>ここでは q は X と W_q から計算される</translation>
    </message>
    <message>
        <source>d_k = {0}: edit q in the table</source>
        <translation>d_k = {0}：q は表で編集</translation>
    </message>
    <message>
        <source>q of {0}: {1}</source>
        <translation>{0} の q：{1}</translation>
    </message>
    <message>
        <source>q of {0} (what it is looking for)</source>
        <translation>{0} の q（何を探しているか）</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>ヘッド</translation>
    </message>
    <message>
        <source>Query</source>
        <translation>クエリ</translation>
    </message>
    <message>
        <source>Export image</source>
        <translation>画像を書き出す</translation>
    </message>
    <message>
        <source>The active head&apos;s heatmap</source>
        <translation>選択中のヘッドのヒートマップ</translation>
    </message>
    <message>
        <source>All heads in one grid</source>
        <translation>全ヘッドを並べて</translation>
    </message>
    <message>
        <source>The selected query: its steps beside the heatmap</source>
        <translation>選択中のクエリ：計算の表とヒートマップ</translation>
    </message>
    <message>
        <source>Width of a PNG in pixels; SVG and PDF are vector and scale freely</source>
        <translation>PNG の幅（ピクセル）。SVG と PDF はベクターなので拡大しても粗くならない</translation>
    </message>
    <message>
        <source>PNG width</source>
        <translation>PNG の幅</translation>
    </message>
    <message>
        <source>Caption with the head&apos;s name and the settings</source>
        <translation>ヘッド名と設定のキャプションを付ける</translation>
    </message>
    <message>
        <source>All {0} heads</source>
        <translation>全 {0} ヘッド</translation>
    </message>
    <message>
        <source>Head {0}: {1}</source>
        <translation>ヘッド {0}：{1}</translation>
    </message>
    <message>
        <source>causal mask on</source>
        <translation>未来を隠す：オン</translation>
    </message>
    <message>
        <source>causal mask off</source>
        <translation>未来を隠す：オフ</translation>
    </message>
    <message>
        <source>÷√d_k (d_k = {0})</source>
        <translation>÷√d_k（d_k = {0}）</translation>
    </message>
    <message>
        <source>no ÷√d_k</source>
        <translation>√d_k で割らない</translation>
    </message>
    <message>
        <source>temperature {0}</source>
        <translation>温度 {0}</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>重み</translation>
    </message>
    <message>
        <source>masked
(future)</source>
        <translation>マスク
（未来）</translation>
    </message>
    <message>
        <source>Head {0}: rows are queries, columns are keys. Click a row to explain it step by step.</source>
        <translation>ヘッド {0}：行がクエリ、列がキー。行をクリックすると、その計算を順に表示する。</translation>
    </message>
    <message>
        <source>q, k, v of the active head</source>
        <translation>選択中のヘッドの q・k・v</translation>
    </message>
    <message>
        <source>One query, step by step</source>
        <translation>1 つのクエリの計算</translation>
    </message>
    <message>
        <source>Controls</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>&amp;Undo</source>
        <translation>元に戻す(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>やり直す(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>開く(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>名前を付けて保存(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Export image…</source>
        <translation>画像を書き出す(&amp;E)…</translation>
    </message>
    <message>
        <source>Export &amp;data…</source>
        <translation>データを書き出す(&amp;D)…</translation>
    </message>
    <message>
        <source>&amp;Copy image</source>
        <translation>画像をコピー(&amp;C)</translation>
    </message>
    <message>
        <source>Re&amp;name token…</source>
        <translation>トークン名を変更(&amp;N)…</translation>
    </message>
    <message>
        <source>Insert token &amp;before…</source>
        <translation>前にトークンを挿入(&amp;B)…</translation>
    </message>
    <message>
        <source>Insert token &amp;after…</source>
        <translation>後ろにトークンを挿入(&amp;A)…</translation>
    </message>
    <message>
        <source>Re&amp;move token</source>
        <translation>トークンを削除(&amp;M)</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New from preset</source>
        <translation>プリセットから新規(&amp;N)</translation>
    </message>
    <message>
        <source>Open &amp;recent</source>
        <translation>最近使ったファイル(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>編集(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <source>untitled</source>
        <translation>無題</translation>
    </message>
    <message>
        <source>Cannot open</source>
        <translation>開けません</translation>
    </message>
    <message>
        <source>Open scenario</source>
        <translation>シナリオを開く</translation>
    </message>
    <message>
        <source>Save scenario</source>
        <translation>シナリオを保存</translation>
    </message>
    <message>
        <source>Cannot save</source>
        <translation>保存できません</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>保存していない変更</translation>
    </message>
    <message>
        <source>{0} has changes that are not saved. Save them?</source>
        <translation>{0} には保存していない変更があります。保存しますか？</translation>
    </message>
    <message>
        <source>(none yet)</source>
        <translation>（まだありません）</translation>
    </message>
    <message>
        <source>Cannot export</source>
        <translation>書き出せません</translation>
    </message>
    <message>
        <source>Exported {0}</source>
        <translation>{0} を書き出しました</translation>
    </message>
    <message>
        <source>Export data</source>
        <translation>データを書き出す</translation>
    </message>
    <message>
        <source>Heatmap copied to the clipboard</source>
        <translation>ヒートマップをクリップボードにコピーしました</translation>
    </message>
    <message>
        <source>Rename token</source>
        <translation>トークン名の変更</translation>
    </message>
    <message>
        <source>New name for {0}:</source>
        <translation>{0} の新しい名前：</translation>
    </message>
    <message>
        <source>Insert token</source>
        <translation>トークンの挿入</translation>
    </message>
    <message>
        <source>Token to insert (its q, k and v start at 0):</source>
        <translation>挿入するトークン（q・k・v は 0 から始まる）：</translation>
    </message>
    <message>
        <source>Rename…</source>
        <translation>名前を変更…</translation>
    </message>
    <message>
        <source>Insert before…</source>
        <translation>前に挿入…</translation>
    </message>
    <message>
        <source>Insert after…</source>
        <translation>後ろに挿入…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <source>key</source>
        <translation>キー</translation>
    </message>
    <message>
        <source>1. score q·k</source>
        <translation>1. スコア（q・k）</translation>
    </message>
    <message>
        <source>mask</source>
        <translation>マスク</translation>
    </message>
    <message>
        <source>2. weight (softmax)</source>
        <translation>2. 重み（softmax）</translation>
    </message>
    <message>
        <source>Query {0} in head {1} ({2}): q = {3}</source>
        <translation>ヘッド {1}（{2}）のクエリ {0}：q = {3}</translation>
    </message>
    <message>
        <source>3. output of {0} = {1}</source>
        <translation>3. {0} の出力 = {1}</translation>
    </message>
    <message>
        <source>Query q</source>
        <translation>Query（q）</translation>
    </message>
    <message>
        <source>what this token is looking for</source>
        <translation>このトークンが探している情報（検索ワード）</translation>
    </message>
    <message>
        <source>Key k</source>
        <translation>Key（k）</translation>
    </message>
    <message>
        <source>what this token offers</source>
        <translation>このトークンが持っている情報（見出し）</translation>
    </message>
    <message>
        <source>Value v</source>
        <translation>Value（v）</translation>
    </message>
    <message>
        <source>what this token passes on</source>
        <translation>このトークンが実際に渡す情報（本文）</translation>
    </message>
    <message>
        <source> — derived from X, read-only</source>
        <translation> — X から計算、読み取り専用</translation>
    </message>
</context>
</TS>
